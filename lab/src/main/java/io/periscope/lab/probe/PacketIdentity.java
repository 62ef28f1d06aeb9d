package io.periscope.lab.probe;

import io.periscope.lab.capture.IpDatagram;

/**
 * What recognises one transmission of a probe packet on every interface it crosses, whatever NAT did
 * to its addresses and ports: fields that no translation rewrites. A retransmission is another
 * transmission: it may take another path (a TCP socket picks a new flow hash when it retransmits),
 * so it must not be mistaken for the first.
 */
public sealed interface PacketIdentity {

    /** Matches any timestamp. */
    long ANY = -1;

    boolean matches(IpDatagram datagram);

    /** A connection's SYN: its initial sequence number, and the timestamp of one transmission of it. */
    record TcpSyn(long sequence, long tsVal) implements PacketIdentity {
        public boolean matches(IpDatagram d) {
            return d.protocol() == IpDatagram.TCP && d.tcp().isSyn() && d.tcp().seq() == sequence
                    && (tsVal == ANY || d.tcp().tsVal() == tsVal);
        }
    }

    /**
     * The answer to a SYN: a SYN-ACK acknowledging its sequence number and echoing the timestamp of
     * the SYN transmission it answers, in one transmission of its own.
     */
    record TcpSynAck(long acknowledged, long tsEcr, long tsVal) implements PacketIdentity {
        public boolean matches(IpDatagram d) {
            return d.protocol() == IpDatagram.TCP && d.tcp().isSynAck() && d.tcp().ack() == ((acknowledged + 1) & 0xffffffffL)
                    && (tsEcr == ANY || d.tcp().tsEcr() == tsEcr) && (tsVal == ANY || d.tcp().tsVal() == tsVal);
        }
    }

    /** A UDP datagram whose payload starts with a text no other datagram carries. */
    record UdpPayload(String text) implements PacketIdentity {
        public boolean matches(IpDatagram d) {
            return d.protocol() == IpDatagram.UDP && d.payload().startsWith(text);
        }
    }

    /** An ICMP message of a type and a total length chosen for one probe ({@code ping -s}). */
    record IcmpMessage(int type, int length) implements PacketIdentity {
        public boolean matches(IpDatagram d) {
            return d.protocol() == IpDatagram.ICMP && d.icmpType() == type && d.length() == length;
        }
    }
}
