package io.periscope.simulator.netfilter;

import io.periscope.plan.netfilter.Table;
import io.periscope.simulator.trace.Packet;

/** A chain ready to run: rules compiled, jumps resolved to chains. */
public final class CompiledChain {

    private final Table table;
    private final String name;
    CompiledRule[] rules = new CompiledRule[0];
    /** Whether a traversal may fork here: a {@code statistic} rule of this chain or of one it jumps to. */
    boolean mayFork;
    /**
     * The packets a traversal can do anything to. A traversal of a chain that can do nothing to a
     * packet ends in ACCEPT without a step, so it need not run: the tunnel rules of raw and filter
     * leave every TCP packet alone, kube-proxy's nat rules every packet to no service address.
     */
    ActionScope scope = ActionScope.NOTHING;

    CompiledChain(Table table, String name) {
        this.table = table;
        this.name = name;
    }

    public Table table() {
        return table;
    }

    public String name() {
        return name;
    }

    public int size() {
        return rules.length;
    }

    /**
     * False when no rule of this chain, or of a chain it jumps to, can change anything for
     * {@code packet} arriving on {@code in} (null where there is no input interface).
     */
    public boolean mayActOn(Packet packet, String in) {
        return scope.covers(packet, in);
    }
}
