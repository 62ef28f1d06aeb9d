package io.periscope.simulator.trace;

import io.periscope.model.topology.Disposition;
import io.periscope.plan.Names;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The gateways a flow's delivered paths cross: the nodes that receive from the route agent's
 * {@code vx-submariner} (a worker sending to its gateway) or that wrap the packet into a cable or
 * unwrap it from one, whichever the cable: VXLAN's {@code vxlan-tunnel}, WireGuard or Libreswan's ESP.
 * What {@code trace --fail}, the what-if view and the lab's failover measurement compare before and after.
 */
public final class TunnelGateways {

    private TunnelGateways() {
    }

    /** As {@code cluster/node}, in the order the paths first cross them. */
    public static Set<String> of(List<PathTrace> paths) {
        Set<String> nodes = new LinkedHashSet<>();
        for (PathTrace path : paths) {
            if (path.disposition() == Disposition.DELIVERED) {
                nodes.addAll(crossedBy(path));
            }
        }
        return nodes;
    }

    /**
     * The gateways one path's forward packet reaches, delivered or not: a dropped path's list ends at
     * the last gateway before the drop, which is what the flow table shows beside the drop reason.
     */
    public static Set<String> crossedBy(PathTrace path) {
        Set<String> nodes = new LinkedHashSet<>();
        for (Hop hop : path.forward()) {
            if (hop.in().filter(Names.VX_SUBMARINER::equals).isPresent() || hop.steps().stream().anyMatch(TunnelGateways::cable)) {
                nodes.add(hop.node().toString());
            }
        }
        return nodes;
    }

    /**
     * Whether a step wraps or unwraps the packet for a cable between clusters: every encapsulation but
     * the route agent's VXLAN inside the cluster ({@code vx-submariner}, from a worker to its gateway).
     */
    private static boolean cable(Step step) {
        return switch (step) {
            case Step.Encap encap -> !withinTheCluster(encap.encapsulation(), encap.device());
            case Step.Decap decap -> !withinTheCluster(decap.encapsulation(), decap.device());
            default -> false;
        };
    }

    private static boolean withinTheCluster(Encapsulation encapsulation, String device) {
        return encapsulation == Encapsulation.VXLAN && device.equals(Names.VX_SUBMARINER);
    }
}
