package io.periscope.simulator.link;

import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.HostId;
import io.periscope.plan.Names;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.LinkFigures;
import io.periscope.simulator.trace.PathLinks;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which links of the topology file a traced path crosses, from the hops the simulator walked. A
 * packet goes from one hop's host to the next one's by a device of each: the physical one, which at
 * a tunnel end is the underlay device of the {@code encap} step (the hop's {@code out} is the tunnel
 * device then) and of the {@code decap} step at the other end. A node's uplink is every device it
 * has on a lab switch: its own interface ({@code eth0} unless the file names another) and a
 * gateway's {@code wan0}. So each crossing counts once for the node it leaves and once for the node
 * it enters when those devices are uplinks: out of the source's node, into and out of each gateway
 * (in by {@code eth0} from a worker, out by {@code wan0} to the other cluster), into the
 * destination's node. A pod's veth is no uplink. Between hops of two clusters the packet also
 * crosses the cable between them.
 */
public final class PathLinkCrossings {

    private final ClusterSet set;
    private final Map<HostId, Node> nodes = new HashMap<>();
    private final boolean anyShaped;

    public PathLinkCrossings(ClusterSet set) {
        this.set = set;
        boolean shaped = set.cables().stream().anyMatch(c -> !c.properties().isEmpty());
        for (Cluster cluster : set.clusters()) {
            for (Node node : cluster.nodes()) {
                nodes.put(HostId.node(cluster.name(), node.name()), node);
                shaped |= !node.link().uplink().isEmpty();
            }
        }
        this.anyShaped = shaped;
    }

    /** Whether the file shapes any link at all; when it does not, no path gets figures. */
    public boolean anyShaped() {
        return anyShaped;
    }

    /** The path with its link figures, when a link it crosses has properties; else the path as it was. */
    public PathTrace withLinks(PathTrace path) {
        if (!anyShaped || path.forward().isEmpty()) {
            return path;
        }
        LinkFigures forward = LinkFigures.of(crossings(path.forward()));
        Optional<LinkFigures> reply = path.hasReply() ? Optional.of(LinkFigures.of(crossings(path.reply()))) : Optional.empty();
        if (!forward.shaped() && reply.map(r -> !r.shaped()).orElse(true)) {
            return path;
        }
        return path.withLinks(new PathLinks(forward, reply));
    }

    /** Every link crossing between consecutive hops, in order. */
    public List<LinkFigures.Crossing> crossings(List<Hop> hops) {
        List<LinkFigures.Crossing> crossed = new ArrayList<>();
        for (int i = 0; i + 1 < hops.size(); i++) {
            Hop from = hops.get(i);
            Hop to = hops.get(i + 1);
            uplink(from.node(), departedBy(from)).ifPresent(crossed::add);
            Node left = nodes.get(from.node());
            Node right = nodes.get(to.node());
            if (left != null && right != null && !from.node().cluster().equals(to.node().cluster())) {
                crossed.add(new LinkFigures.Crossing(cableName(from.node().cluster(), to.node().cluster()),
                        set.cableBetween(from.node().cluster(), to.node().cluster())));
            }
            uplink(to.node(), arrivedBy(to)).ifPresent(crossed::add);
        }
        return crossed;
    }

    private Optional<LinkFigures.Crossing> uplink(HostId host, Optional<String> device) {
        Node node = nodes.get(host);
        if (node == null || device.isEmpty() || !uplinkDevices(node).contains(device.get())) {
            return Optional.empty();
        }
        return Optional.of(new LinkFigures.Crossing(host + " uplink", node.link().uplink()));
    }

    private static Set<String> uplinkDevices(Node node) {
        return node.gateway() ? Set.of(node.link().device(), Names.WAN) : Set.of(node.link().device());
    }

    /** The cable as the file names it, {@code cable cluster1-cluster2} in the order of its {@code between}. */
    private String cableName(String a, String b) {
        return set.cables().stream().filter(c -> c.joins(a, b)).findFirst()
                .map((CableLink c) -> "cable " + c.left() + "-" + c.right())
                .orElse("cable " + a + "-" + b);
    }

    /**
     * The device the packet physically left the hop's host by: after an encapsulation, the device the
     * outer packet was routed out of (the last route step after it; the encapsulation's underlay when
     * none follows), else the hop's output.
     */
    static Optional<String> departedBy(Hop hop) {
        boolean encapsulated = false;
        String device = null;
        for (Step step : hop.steps()) {
            if (step instanceof Step.Encap encap) {
                encapsulated = true;
                device = encap.underlay();
            } else if (encapsulated && step instanceof Step.Route route && route.device() != null) {
                device = route.device();
            }
        }
        return encapsulated && device != null && !device.isBlank() ? Optional.of(device) : hop.out();
    }

    /** The device the packet physically entered the hop's host by: the first decapsulation's underlay, else the hop's input. */
    static Optional<String> arrivedBy(Hop hop) {
        for (Step step : hop.steps()) {
            if (step instanceof Step.Decap decap) {
                return Optional.of(decap.underlay());
            }
        }
        return hop.in();
    }
}
