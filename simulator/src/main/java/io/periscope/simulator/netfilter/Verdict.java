package io.periscope.simulator.netfilter;

/** How a table's traversal ended. */
public enum Verdict {
    /** An ACCEPT rule, or the end of the built-in chain (policy ACCEPT): go on to the next table. */
    ACCEPT,
    /** A DROP rule: the packet is gone. */
    DROP,
    /** A SNAT, DNAT or MASQUERADE rule decided the connection's translation (nat table only). */
    NAT
}
