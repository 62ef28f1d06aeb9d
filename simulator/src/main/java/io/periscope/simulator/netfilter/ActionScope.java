package io.periscope.simulator.netfilter;

import io.periscope.model.topology.Protocol;

import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A superset of the packets a chain can do anything to: the protocols and destination ports, the
 * destination prefixes and the input interfaces of its rules that act (and of the chains they jump
 * to). A packet outside any one of the three meets no rule that could match it, so the traversal
 * would end in ACCEPT without a step and need not run. Each part is checked on its own, which keeps
 * it a superset: a rule matches only packets inside all three of its own parts.
 */
final class ActionScope {

    /** In {@link #ports}: every destination port. */
    static final int[] ANY_PORT = new int[0];
    /** Beyond this many destinations or interfaces, a part counts as "any": the check must stay cheap. */
    private static final int MOST = 16;

    static final ActionScope NOTHING = new ActionScope(new int[Protocol.values().length][], new int[0], new int[0], new String[0]);

    /** By protocol ordinal: null for none, {@link #ANY_PORT}, or the ports. */
    final int[][] ports;
    /** Destination prefixes as masks and networks; null for any destination. */
    final int[] masks;
    final int[] networks;
    /** Exact input interface names; null for any (or none: locally generated packets have none). */
    final String[] inputs;
    /** {@link #ports} as bits by protocol ordinal: every port, and some ports. */
    final int anyPort;
    final int somePort;

    private ActionScope(int[][] ports, int[] masks, int[] networks, String[] inputs) {
        this.ports = ports;
        this.masks = masks;
        this.networks = networks;
        this.inputs = inputs;
        int any = 0;
        int some = 0;
        for (int i = 0; i < ports.length; i++) {
            if (ports[i] == ANY_PORT) {
                any |= 1 << i;
            } else if (ports[i] != null) {
                some |= 1 << i;
            }
        }
        this.anyPort = any;
        this.somePort = some;
    }

    /** What {@code rule} itself can match, for a rule that acts: everything its matches leave. */
    static ActionScope of(CompiledRule rule) {
        int[][] all = new int[Protocol.values().length][];
        Arrays.fill(all, ANY_PORT);
        return new ActionScope(all, null, null, null).narrowedBy(rule);
    }

    /** This scope within what {@code rule}'s own protocol, port, destination and input matches allow. */
    ActionScope narrowedBy(CompiledRule rule) {
        int[][] narrowed = new int[ports.length][];
        for (Protocol protocol : Protocol.values()) {
            int[] known = ports[protocol.ordinal()];
            if (known == null || rule.protocol() != null && rule.protocol() != protocol || rule.tcpSyn() && protocol != Protocol.TCP) {
                continue;
            }
            int dport = rule.dport();
            if (dport < 0) {
                narrowed[protocol.ordinal()] = known;
            } else if (protocol.hasPorts() && (known == ANY_PORT || IntStream.of(known).anyMatch(p -> p == dport))) {
                narrowed[protocol.ordinal()] = new int[] {dport};
            }
        }
        // A rule's own destination or input is a superset of what it leads to, whatever the chain it jumps to says.
        boolean ownDestination = rule.destinationMask() != 0 && !rule.destinationNegated();
        boolean ownInput = rule.input() != null && !rule.inputNegated() && !rule.input().endsWith("+");
        return new ActionScope(narrowed,
                ownDestination ? new int[] {rule.destinationMask()} : masks,
                ownDestination ? new int[] {rule.destinationNetwork()} : networks,
                ownInput ? new String[] {rule.input()} : inputs);
    }

    ActionScope union(ActionScope other) {
        int[][] joined = new int[ports.length][];
        for (int i = 0; i < ports.length; i++) {
            int[] a = ports[i];
            int[] b = other.ports[i];
            if (a == null || b == null) {
                joined[i] = a == null ? b : a;
            } else if (a == ANY_PORT || b == ANY_PORT) {
                joined[i] = ANY_PORT;
            } else {
                joined[i] = IntStream.concat(IntStream.of(a), IntStream.of(b)).distinct().toArray();
            }
        }
        int[] joinedMasks = null;
        int[] joinedNetworks = null;
        if (masks != null && other.masks != null && masks.length + other.masks.length <= MOST) {
            joinedMasks = IntStream.concat(IntStream.of(masks), IntStream.of(other.masks)).toArray();
            joinedNetworks = IntStream.concat(IntStream.of(networks), IntStream.of(other.networks)).toArray();
        }
        String[] joinedInputs = null;
        if (inputs != null && other.inputs != null && inputs.length + other.inputs.length <= MOST) {
            joinedInputs = Stream.concat(Arrays.stream(inputs), Arrays.stream(other.inputs)).distinct().toArray(String[]::new);
        }
        return new ActionScope(joined, joinedMasks, joinedNetworks, joinedInputs);
    }
}
