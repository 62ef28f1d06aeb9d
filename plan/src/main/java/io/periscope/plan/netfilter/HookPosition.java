package io.periscope.plan.netfilter;

/**
 * Where a rule of Periscope's goes in a built-in chain (PREROUTING, INPUT, ...), which other
 * components share: upstream's packet filter hooks each of its chains either first or last
 * ({@code packetfilter.ChainPriorityFirst} / {@code ChainPriorityLast} in
 * pkg/packetfilter/packetfilter.go), and Periscope places each jump as upstream does.
 */
public enum HookPosition {

    /**
     * At the top of the chain, ahead of everyone else's rules, in plan order: upstream's
     * {@code InsertUnique(table, chain, 1, rule)}. Every upstream jump but one is hooked so.
     */
    FIRST,

    /**
     * Below Periscope's first rules and whatever the chain held when the rule was added: upstream's
     * {@code AppendUnique}, which adds the rule at the end when it is missing and otherwise leaves it
     * where it is, even with rules appended after it since. Upstream's kube-proxy handler hooks
     * {@code SUBMARINER-INPUT} so.
     */
    LAST
}
