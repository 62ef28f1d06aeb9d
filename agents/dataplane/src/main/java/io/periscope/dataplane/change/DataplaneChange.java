package io.periscope.dataplane.change;

import java.util.Optional;

/**
 * One step from a current kernel state towards a desired one. Every kind says what was there
 * ({@code before}) and what will be ({@code after}): both present is a replacement in place, only
 * {@code after} an addition, only {@code before} a removal. Renderers turn changes into the input
 * of {@code iptables-restore}, {@code ipset restore}, {@code ip -batch}, {@code bridge -batch} and
 * {@code sysctl}; {@code DataplaneDiff.applyTo} applies them to records.
 */
public sealed interface DataplaneChange permits ChainChange, BuiltinChainChange, IpSetChange, VxlanDeviceChange,
        NeighbourChange, FdbChange, NexthopObjectChange, NexthopGroupChange, RouteChange, PolicyRuleChange, SysctlChange {

    /** The kernel programs that carry out a change; consecutive changes of one tool share a batch. */
    enum Tool { IPSET, IPTABLES, IP, BRIDGE, SYSCTL }

    Tool tool();

    /** A removal: nothing remains afterwards. */
    boolean isRemoval();

    /** Every change kind has a before or an after state, or both. */
    static <T> void requireOneSide(Optional<T> before, Optional<T> after, String kind) {
        if (before.isEmpty() && after.isEmpty()) {
            throw new IllegalArgumentException("a " + kind + " change needs a before or an after state");
        }
    }
}
