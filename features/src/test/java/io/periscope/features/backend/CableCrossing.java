package io.periscope.features.backend;

import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One place where a traced packet goes from one cluster to another: the hop that sends it, the hop
 * that receives it, the packet as it was before the sender wrapped it, and the last wrapping
 * ({@code encap}) of the sender's hop, empty when nothing wrapped it.
 */
public record CableCrossing(Hop sender, Hop receiver, Packet inner, Optional<Step.Encap> encap) {

    /** The crossings of every path, forward and reply, in order. */
    public static List<CableCrossing> of(List<PathTrace> paths) {
        List<CableCrossing> crossings = new ArrayList<>();
        for (PathTrace path : paths) {
            for (List<Hop> direction : List.of(path.forward(), path.reply())) {
                for (int i = 0; i + 1 < direction.size(); i++) {
                    Hop hop = direction.get(i);
                    Hop next = direction.get(i + 1);
                    if (!hop.node().cluster().equals(next.node().cluster())) {
                        crossings.add(of(hop, next));
                    }
                }
            }
        }
        return crossings;
    }

    private static CableCrossing of(Hop sender, Hop receiver) {
        Packet before = sender.arrive();
        Packet inner = sender.depart().orElse(before);
        Optional<Step.Encap> encap = Optional.empty();
        for (Step step : sender.steps()) {
            if (step instanceof Step.Encap e) {
                // The last wrapping is the one on the wire between the clusters.
                encap = Optional.of(e);
                inner = before;
            }
            before = step.packet();
        }
        return new CableCrossing(sender, receiver, inner, encap);
    }

    /** {@code cluster1 -> cluster2}. */
    public String clusters() {
        return sender.node().cluster() + " -> " + receiver.node().cluster();
    }
}
