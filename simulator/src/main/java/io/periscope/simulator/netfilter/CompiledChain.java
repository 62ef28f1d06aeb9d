package io.periscope.simulator.netfilter;

import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Table;
import io.periscope.simulator.trace.Packet;

/** A chain ready to run: rules compiled, jumps resolved to chains. */
public final class CompiledChain {

    /** In {@link #actsOn}: every destination port. */
    static final int[] ANY_PORT = new int[0];

    private final Table table;
    private final String name;
    CompiledRule[] rules = new CompiledRule[0];
    /** Whether a traversal may fork here: a {@code statistic} rule of this chain or of one it jumps to. */
    boolean mayFork;
    /**
     * The packets a traversal of this chain can do anything to, by protocol ordinal: null for none,
     * {@link #ANY_PORT} for every destination port, else those ports. A traversal of a chain that can
     * do nothing to a packet ends in ACCEPT without a step, so it need not run: the tunnel rules of
     * raw and filter, say, leave every TCP packet alone.
     */
    int[][] actsOn = new int[Protocol.values().length][];
    /** {@link #actsOn} as bits by protocol ordinal, asked first: acts on every port, and on some. */
    private int anyPort;
    private int somePort;

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

    void actsOn(int[][] summary) {
        actsOn = summary;
        anyPort = 0;
        somePort = 0;
        for (int i = 0; i < summary.length; i++) {
            if (summary[i] == ANY_PORT) {
                anyPort |= 1 << i;
            } else if (summary[i] != null) {
                somePort |= 1 << i;
            }
        }
    }

    /** False when no rule of this chain, or of a chain it jumps to, can change anything for {@code packet}. */
    public boolean mayActOn(Packet packet) {
        int protocol = 1 << packet.protocol().ordinal();
        if ((anyPort & protocol) != 0) {
            return true;
        }
        return (somePort & protocol) != 0 && onPort(packet);
    }

    private boolean onPort(Packet packet) {
        for (int port : actsOn[packet.protocol().ordinal()]) {
            if (port == packet.dport()) {
                return true;
            }
        }
        return false;
    }
}
