package io.periscope.simulator.netfilter;

import io.periscope.plan.netfilter.Table;

/** A chain ready to run: rules compiled, jumps resolved to chains. */
public final class CompiledChain {

    private final Table table;
    private final String name;
    CompiledRule[] rules = new CompiledRule[0];
    /** Whether a traversal may fork here: a {@code statistic} rule of this chain or of one it jumps to. */
    boolean mayFork;

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
}
