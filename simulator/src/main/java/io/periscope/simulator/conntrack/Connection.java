package io.periscope.simulator.conntrack;

/**
 * A confirmed conntrack entry of one host. The reply tuple is the inverse of the original tuple after
 * NAT, so it says by itself which translations a reply needs undone; {@code snat} and {@code dnat} are
 * the kernel's IPS_SRC_NAT / IPS_DST_NAT status bits, which {@code --ctstate SNAT,DNAT} test in both
 * directions.
 *
 * @param host the host index the entry lives in (conntrack is per network namespace)
 */
public record Connection(int host, ConnTuple original, ConnTuple reply, boolean snat, boolean dnat, int connmark) {

    public Connection withConnmark(int newMark) {
        return new Connection(host, original, reply, snat, dnat, newMark);
    }
}
