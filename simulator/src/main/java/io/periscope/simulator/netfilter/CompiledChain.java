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
     * leave every TCP packet alone, kube-proxy's nat rules every packet to no service address. Its
     * parts are copied into fields below, as every table of every hop asks.
     */
    ActionScope scope = ActionScope.NOTHING;
    private int anyPort;
    private int somePort;
    private int[][] ports = ActionScope.NOTHING.ports;
    private int[] masks = ActionScope.NOTHING.masks;
    private int[] networks = ActionScope.NOTHING.networks;
    private String[] inputs = ActionScope.NOTHING.inputs;
    /**
     * When every rule of this chain that acts (and of the chains it jumps to) is a TCPMSS target, the
     * largest MSS none of them lowers: the kernel's TCPMSS never raises an MSS, so a SYN offering this
     * or less (or a packet without the option, MSS 0) leaves the chain as it came. A path-MTU clamp
     * counts as 0, as its value needs a route lookup. -1 when some rule does anything else.
     */
    int mssKeptUpTo = -1;
    /**
     * The chain a traversal of this one walks: itself, or when its only rule is a plain {@code -j CHAIN}
     * (upstream's built-in chains each hold one), that chain's, which leaves the same steps and verdict
     * for one level of walking less. Only where nobody is told of the chains entered.
     */
    CompiledChain walked = this;
    /**
     * Whether this chain is shared between hosts (see {@link SharedCompilation}) and has {@code statistic}
     * rules: their serials then count from the chain's first rule, and each host adds the serial the
     * chain starts at in its own tables ({@link Ruleset#serialOf}), so a draw is the one it would be
     * with the chain the host's own.
     */
    boolean drawsPerHost;

    CompiledChain(Table table, String name) {
        this.table = table;
        this.name = name;
    }

    void scope(ActionScope summary) {
        scope = summary;
        anyPort = summary.anyPort;
        somePort = summary.somePort;
        ports = summary.ports;
        masks = summary.masks;
        networks = summary.networks;
        inputs = summary.inputs;
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
        return mayActOn(packet.protocol().ordinal(), packet.dport(), packet.dst().bits(), in);
    }

    /** As {@link #mayActOn(Packet, String)}, for the packet of {@code run} arriving on its input. */
    boolean mayActOn(TableRun run) {
        return mayActOn(run.protocol.ordinal(), run.dport, run.dst, run.in);
    }

    /** Only a protocol with ports has some ports in a scope, so {@code dport} is only read for one. */
    private boolean mayActOn(int protocol, int dport, int destination, String in) {
        if ((anyPort >>> protocol & 1) == 0 && ((somePort >>> protocol & 1) == 0 || !onPort(ports[protocol], dport))) {
            return false;
        }
        return (masks == null || toDestination(destination)) && (inputs == null || from(in));
    }

    /**
     * True when every rule of this chain that acts is a TCPMSS target and none of them would lower
     * {@code mss}, the packet's MSS option (0 for none): the chain cannot change the packet.
     */
    public boolean keepsMss(int mss) {
        return mss <= mssKeptUpTo;
    }

    private static boolean onPort(int[] ports, int dport) {
        for (int port : ports) {
            if (port == dport) {
                return true;
            }
        }
        return false;
    }

    private boolean toDestination(int destination) {
        for (int i = 0; i < masks.length; i++) {
            if ((destination & masks[i]) == networks[i]) {
                return true;
            }
        }
        return false;
    }

    private boolean from(String in) {
        if (in == null) {
            return false;
        }
        for (String input : inputs) {
            if (input.equals(in)) {
                return true;
            }
        }
        return false;
    }
}
