package io.periscope.lab.probe;

import io.periscope.lab.capture.IpDatagram;

/**
 * What recognises one probe packet on every interface it crosses, whatever NAT did to its addresses
 * and ports: fields that no translation rewrites.
 */
public sealed interface PacketIdentity {

    boolean matches(IpDatagram datagram);

    /** A connection's SYN: its initial sequence number. */
    record TcpSyn(long sequence) implements PacketIdentity {
        public boolean matches(IpDatagram d) {
            return d.protocol() == IpDatagram.TCP && (d.tcpFlags() & (IpDatagram.TCP_SYN | IpDatagram.TCP_ACK)) == IpDatagram.TCP_SYN
                    && d.tcpSeq() == sequence;
        }
    }

    /** The answer to a SYN: a SYN-ACK acknowledging its sequence number. */
    record TcpSynAck(long acknowledged) implements PacketIdentity {
        public boolean matches(IpDatagram d) {
            int both = IpDatagram.TCP_SYN | IpDatagram.TCP_ACK;
            return d.protocol() == IpDatagram.TCP && (d.tcpFlags() & both) == both && d.tcpAck() == ((acknowledged + 1) & 0xffffffffL);
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
