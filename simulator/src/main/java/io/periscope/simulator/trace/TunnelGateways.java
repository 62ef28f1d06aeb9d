package io.periscope.simulator.trace;

import io.periscope.model.topology.Disposition;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The gateways a flow's delivered paths cross: the nodes that receive from a tunnel
 * ({@code vx-submariner} from a worker, {@code vxlan-tunnel} from the other cluster) or send into
 * the cable. What {@code trace --fail} and the lab's failover measurement compare before and after.
 */
public final class TunnelGateways {

    private TunnelGateways() {
    }

    /** As {@code cluster/node}, in the order the paths first cross them. */
    public static Set<String> of(List<PathTrace> paths) {
        Set<String> nodes = new LinkedHashSet<>();
        for (PathTrace path : paths) {
            if (path.disposition() != Disposition.DELIVERED) {
                continue;
            }
            for (Hop hop : path.forward()) {
                if (hop.in().filter(i -> i.equals("vx-submariner") || i.equals("vxlan-tunnel")).isPresent()
                        || hop.out().filter(o -> o.equals("vxlan-tunnel")).isPresent()) {
                    nodes.add(hop.node().toString());
                }
            }
        }
        return nodes;
    }
}
