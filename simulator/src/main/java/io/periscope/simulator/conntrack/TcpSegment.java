package io.periscope.simulator.conntrack;

/**
 * The TCP segments a trace follows, by the flags conntrack's TCP tracker looks at. A trace sends the
 * first packet each way (a {@link #SYN}, answered by a {@link #SYN_ACK}); a connection that moved to
 * another gateway after a failure continues with {@link #ACK}s that the new path has never seen.
 */
public enum TcpSegment {
    SYN, SYN_ACK, ACK;

    /**
     * Whether a host without an entry for this segment's connection creates one
     * ({@code tcp_new()}: the {@code sNO} column of {@code tcp_conntracks}). A SYN opens a connection;
     * an ACK is picked up mid-stream only while {@code nf_conntrack_tcp_loose} is on; a SYN-ACK without
     * its SYN is invalid whatever the setting. A segment that creates nothing is INVALID: conntrack
     * leaves it without an entry, so NAT never sees it and only rules can drop it.
     */
    public boolean opensConnection(boolean tcpLoose) {
        // Compared, not switched on: an enum switch reads a lookup array, and conntrack asks at every layer.
        return this == SYN || this == ACK && tcpLoose;
    }

    /** The segment a receiving socket answers this one with. */
    public TcpSegment answer() {
        return this == SYN ? SYN_ACK : ACK;
    }
}
