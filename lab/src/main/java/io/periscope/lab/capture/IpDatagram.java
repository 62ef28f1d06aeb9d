package io.periscope.lab.capture;

import io.periscope.model.net.Ipv4Address;

import java.util.Optional;

/**
 * The fields of a captured IPv4 packet the probe uses: addresses and ports to rebuild hops, and the
 * fields no NAT rewrites (TCP sequence numbers and timestamps, the UDP payload, ICMP type and
 * length) to recognise the same packet on every interface it crosses.
 *
 * @param protocol IP protocol number (6 TCP, 17 UDP, 1 ICMP)
 * @param length   the IP total length
 * @param tcp      the TCP header's fields, {@link TcpFields#NONE} for other protocols
 * @param payload  the first bytes of the UDP payload as ISO-8859-1 text, empty for other protocols
 * @param quoted   for an ICMP error, the header of the packet it reports on
 */
public record IpDatagram(Ipv4Address src, Ipv4Address dst, int protocol, int length, int sport, int dport, TcpFields tcp,
                         int icmpType, int icmpCode, String payload, Optional<Quoted> quoted) {

    public static final int TCP = 6;
    public static final int UDP = 17;
    public static final int ICMP = 1;

    public static final int TCP_SYN = 0x02;
    public static final int TCP_ACK = 0x10;

    public static final int ICMP_ECHO_REPLY = 0;
    public static final int ICMP_DESTINATION_UNREACHABLE = 3;
    public static final int ICMP_ECHO_REQUEST = 8;
    public static final int ICMP_TIME_EXCEEDED = 11;

    /**
     * Sequence and acknowledgement numbers, flags, and the timestamp option ({@code tsVal}/{@code
     * tsEcr}, -1 without the option). A retransmitted SYN keeps its sequence number but not its
     * timestamp, and a SYN-ACK echoes the timestamp of the SYN it answers: that tells one
     * transmission from another.
     */
    public record TcpFields(long seq, long ack, int flags, long tsVal, long tsEcr) {
        public static final TcpFields NONE = new TcpFields(0, 0, 0, -1, -1);

        public boolean isSyn() {
            return (flags & (TCP_SYN | TCP_ACK)) == TCP_SYN;
        }

        public boolean isSynAck() {
            return (flags & (TCP_SYN | TCP_ACK)) == (TCP_SYN | TCP_ACK);
        }
    }

    /** The addresses and ports of the packet an ICMP error quotes (its IP header and first 8 bytes). */
    public record Quoted(Ipv4Address src, Ipv4Address dst, int protocol, int sport, int dport) {
    }
}
