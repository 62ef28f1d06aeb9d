package io.periscope.simulator.scenarios;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A trace reduced to what the seed documents show for each step: the node, what happened (route,
 * NAT, delivery) and the addresses afterwards. Steps on the tunnels' outer packets are left out,
 * as the documents leave them out.
 */
final class DocumentedSteps {

    private DocumentedSteps() {
    }

    static Simulator simulator(String example) throws Exception {
        return new Simulator(Planner.plan(load(example)));
    }

    static ClusterSet load(String example) throws Exception {
        return TopologyLoader.load(Path.of("..", "examples", example));
    }

    /** The path whose choices name these nexthops, in order ("via 240.18.0.8", ...). */
    static PathTrace pathThrough(FlowTrace trace, String... nexthops) {
        return trace.paths().stream().filter(p -> {
            if (p.choices().size() != nexthops.length) {
                return false;
            }
            for (int i = 0; i < nexthops.length; i++) {
                if (!p.choices().get(i).contains(nexthops[i] + " ")) {
                    return false;
                }
            }
            return true;
        }).findFirst().orElseThrow(() -> new AssertionError("no path through " + List.of(nexthops) + " among " + trace.paths().size()));
    }

    static List<String> lines(List<Hop> hops) {
        List<String> lines = new ArrayList<>();
        for (Hop hop : hops) {
            for (Step step : hop.steps()) {
                if (isOuter(step.packet())) {
                    continue;
                }
                String what = switch (step) {
                    case Step.Route r when !r.table().equals("local") -> "route " + r.table() + " " + r.nexthop();
                    case Step.Snat s -> "snat" + s.rule().map(rule -> " " + rule.chain()).orElse("");
                    case Step.Dnat d -> "dnat" + d.rule().map(rule -> " " + rule.chain().replaceAll("-[A-Z0-9]{16}$", "")).orElse("");
                    case Step.Unsnat u -> "unsnat";
                    case Step.Undnat u -> "undnat";
                    case Step.Deliver d -> "deliver";
                    case Step.Drop d -> "drop " + d.reason();
                    default -> null;
                };
                if (what != null) {
                    lines.add(hop.node() + ": " + what + " | SRC: " + step.packet().src() + " DST: " + step.packet().dst());
                }
            }
        }
        return lines;
    }

    /** The tunnels' own packets: UDP on 4800 and 4500 (VXLAN, ESP in UDP), and a Libreswan cable's bare ESP. */
    private static boolean isOuter(Packet packet) {
        return packet.protocol() == io.periscope.model.topology.Protocol.UDP && (packet.dport() == 4800 || packet.dport() == 4500)
                || packet.protocol() == io.periscope.model.topology.Protocol.ESP;
    }
}
