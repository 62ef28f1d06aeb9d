package io.periscope.visualizer.scene;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.plan.ClusterSetPlan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The topology as the page draws it: clusters with their CIDRs and exports, hosts (gateways active,
 * standby or failed; other nodes; pods) with their boxes, the cables between clusters with their
 * driver, the pairs the connectivity policies leave unconnected, and the tunnels inside a cluster.
 * Boxes come from the healthy cluster set, so failing a gateway changes colours, never positions.
 */
public final class TopologyScene {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final double CHAR_WIDTH = 7.2;
    private static final double HOST_HEIGHT = 44;
    /** Room above the hosts for the cluster's name, CNI, CIDRs and exports (four lines). */
    private static final double HEADER_HEIGHT = 62;

    private TopologyScene() {
    }

    /**
     * @param healthy the cluster set as the file describes it (its layout is the one drawn)
     * @param plan    the plan of the cluster set after {@code failed} went down (its gateways and allocations are shown)
     * @param failed  {@code cluster/node} names of failed nodes
     */
    public static ObjectNode of(ClusterSet healthy, ClusterSetPlan plan, Collection<String> failed) {
        return of(healthy, plan, failed, layout(healthy, plan, null));
    }

    /**
     * Where the healthy cluster set's clusters and hosts go, keeping each cluster where {@code previous}
     * (the previous revision's placement, or null) had it; see {@link SceneLayout#place(SceneLayout.Input, SceneLayout.Placement)}.
     */
    public static SceneLayout.Placement layout(ClusterSet healthy, ClusterSetPlan plan, SceneLayout.Placement previous) {
        return SceneLayout.place(layoutInput(healthy, plan), previous);
    }

    /** As {@link #of(ClusterSet, ClusterSetPlan, Collection)}, drawn at {@code placement} (the healthy set's {@link #layout}). */
    public static ObjectNode of(ClusterSet healthy, ClusterSetPlan plan, Collection<String> failed, SceneLayout.Placement placement) {
        ClusterSet survivors = plan.clusterSet();
        ObjectNode topology = MAPPER.createObjectNode();
        topology.put("name", healthy.name());
        topology.put("globalnet", healthy.globalnet().enabled());
        topology.put("width", round(placement.width()));
        topology.put("height", round(placement.height()));
        ArrayNode clusters = topology.putArray("clusters");
        for (Cluster cluster : healthy.clusters()) {
            Cluster alive = survivors.cluster(cluster.name()).orElse(cluster);
            ObjectNode node = clusters.addObject();
            node.put("name", cluster.name());
            node.put("cni", cluster.cni().yamlName());
            node.put("multiActiveGateways", cluster.multiActiveGateways());
            strings(node.putArray("podCIDRs"), cluster.podCidrs().stream().map(Ipv4Prefix::toString).toList());
            strings(node.putArray("serviceCIDRs"), cluster.serviceCidrs().stream().map(Ipv4Prefix::toString).toList());
            cluster.globalCidr().ifPresentOrElse(c -> node.put("globalCIDR", c.toString()),
                    () -> plan.allocations().cluster(cluster.name()).ifPresent(a -> node.put("globalCIDR", a.globalCidr() + " (assigned)")));
            ArrayNode exports = node.putArray("exports");
            for (var export : cluster.exports()) {
                ObjectNode e = exports.addObject();
                e.put("name", export.toString());
                cluster.service(export.namespace(), export.name()).flatMap(Service::clusterIp).ifPresent(ip -> e.put("clusterIP", ip.toString()));
                plan.allocations().ingressForService(cluster.name(), export.namespace(), export.name())
                        .filter(ingress -> !ingress.addresses().isEmpty())
                        .ifPresent(ingress -> e.put("globalIP", ingress.addresses().getFirst().toString()));
            }
            box(node, placement.clusters().get(cluster.name()));
            ArrayNode hosts = node.putArray("hosts");
            Set<String> active = Set.copyOf(alive.activeGateways().stream().map(Node::name).toList());
            for (Node n : cluster.nodes()) {
                String id = cluster.name() + "/" + n.name();
                ObjectNode host = hosts.addObject();
                host.put("id", id);
                host.put("name", n.name());
                host.put("kind", n.gateway() ? "gateway" : "node");
                host.put("state", failed.contains(id) ? "failed" : !n.gateway() ? "up" : active.contains(n.name()) ? "active" : "standby");
                host.put("ip", n.ip().toString());
                host.put("cniIP", n.cniIp().toString());
                n.publicIp().ifPresent(p -> host.put("publicIP", p.toString()));
                box(host, placement.hosts().get(id));
            }
            for (Pod p : cluster.pods()) {
                String id = cluster.name() + "/" + p.namespace() + "/" + p.name();
                ObjectNode host = hosts.addObject();
                host.put("id", id);
                host.put("name", p.namespace() + "/" + p.name());
                host.put("kind", "pod");
                host.put("state", failed.contains(cluster.name() + "/" + p.node()) ? "failed" : "up");
                host.put("ip", p.ip().toString());
                host.put("node", cluster.name() + "/" + p.node());
                box(host, placement.hosts().get(id));
            }
            for (String router : routers(plan, cluster.name())) {
                String id = cluster.name() + "/" + router;
                ObjectNode host = hosts.addObject();
                host.put("id", id);
                host.put("name", router);
                host.put("kind", "router");
                host.put("state", "up");
                box(host, placement.hosts().get(id));
            }
            ArrayNode tunnels = node.putArray("tunnels");
            for (Node n : cluster.nodes()) {
                if (n.gateway()) {
                    continue;
                }
                for (Node gateway : alive.activeGateways()) {
                    ObjectNode tunnel = tunnels.addObject();
                    tunnel.put("from", cluster.name() + "/" + n.name());
                    tunnel.put("to", cluster.name() + "/" + gateway.name());
                    tunnel.put("device", cluster.cni() == Cni.KUBE_PROXY ? "vx-submariner" : "ovn");
                }
            }
        }
        ClusterGraph graph = ClusterGraph.of(healthy);
        ArrayNode cables = topology.putArray("cables");
        for (ClusterGraph.Connection connection : graph.connections()) {
            ObjectNode cable = cables.addObject();
            cable.put("left", connection.left());
            cable.put("right", connection.right());
            cable.put("driver", connection.cableDriver().name().yamlName());
            connection.connectivityPolicy().ifPresent(p -> cable.put("connectivityPolicy", p));
            connection.connectionPolicyIndex().ifPresent(i -> cable.put("connectionPolicy", i));
            List<SceneLayout.Point> route = placement.cables().get(connection.left() + " " + connection.right());
            if (route != null) {
                ArrayNode points = cable.putArray("route");
                route.forEach(p -> points.addArray().add(round(p.x())).add(round(p.y())));
            }
        }
        ArrayNode unconnected = topology.putArray("unconnected");
        List<Cluster> all = healthy.clusters();
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                if (!graph.connected(all.get(i).name(), all.get(j).name())) {
                    ObjectNode pair = unconnected.addObject();
                    pair.put("left", all.get(i).name());
                    pair.put("right", all.get(j).name());
                    pair.put("reason", "no connectivity policy selects this pair");
                }
            }
        }
        return topology;
    }

    /** OVN-Kubernetes' logical routers that traces pass through, in the plan's order; none for kube-proxy clusters. */
    private static List<String> routers(ClusterSetPlan plan, String cluster) {
        return plan.ovn(cluster).map(o -> o.routers().stream().map(r -> r.name()).toList()).orElse(List.of());
    }

    private static SceneLayout.Input layoutInput(ClusterSet set, ClusterSetPlan plan) {
        List<SceneLayout.ClusterInput> clusters = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            List<SceneLayout.HostInput> hosts = new ArrayList<>();
            List<List<String>> edges = new ArrayList<>();
            for (Node n : cluster.nodes()) {
                hosts.add(new SceneLayout.HostInput(cluster.name() + "/" + n.name(), width(n.name(), n.ip().toString()), HOST_HEIGHT));
            }
            for (Pod p : cluster.pods()) {
                String id = cluster.name() + "/" + p.namespace() + "/" + p.name();
                hosts.add(new SceneLayout.HostInput(id, width(p.namespace() + "/" + p.name(), p.ip().toString()), HOST_HEIGHT));
                edges.add(List.of(id, cluster.name() + "/" + p.node()));
            }
            List<String> routers = routers(plan, cluster.name());
            for (String router : routers) {
                hosts.add(new SceneLayout.HostInput(cluster.name() + "/" + router, width(router), HOST_HEIGHT));
            }
            for (int i = 1; i < routers.size(); i++) {
                edges.add(List.of(cluster.name() + "/" + routers.get(i - 1), cluster.name() + "/" + routers.get(i)));
            }
            for (Node n : cluster.nodes()) {
                if (!n.gateway()) {
                    for (Node gateway : cluster.gateways()) {
                        String towards = routers.isEmpty() ? cluster.name() + "/" + gateway.name() : cluster.name() + "/" + routers.getFirst();
                        edges.add(List.of(cluster.name() + "/" + n.name(), towards));
                    }
                }
            }
            if (!routers.isEmpty()) {
                for (Node gateway : cluster.gateways()) {
                    edges.add(List.of(cluster.name() + "/" + routers.getLast(), cluster.name() + "/" + gateway.name()));
                }
            }
            clusters.add(new SceneLayout.ClusterInput(cluster.name(), HEADER_HEIGHT, width(headerLines(cluster).toArray(String[]::new)),
                    hosts, edges));
        }
        List<List<String>> cables = ClusterGraph.of(set).connections().stream().map(c -> List.of(c.left(), c.right())).toList();
        return new SceneLayout.Input(clusters, cables);
    }

    /** The longest lines the page writes in a cluster's header: CIDRs and exports. */
    private static List<String> headerLines(Cluster cluster) {
        List<String> lines = new ArrayList<>();
        lines.add(cluster.name() + " · " + cluster.cni().yamlName());
        lines.add("pods " + cluster.podCidrs() + " services " + cluster.serviceCidrs());
        lines.add("global " + cluster.globalCidr().map(Object::toString).orElse("000.000.000.000/00 (assigned)"));
        lines.add("exports " + cluster.exports().stream().limit(2).toList() + " +99");
        return lines;
    }

    private static double width(String... lines) {
        int longest = 0;
        for (String line : lines) {
            longest = Math.max(longest, line.length());
        }
        return Math.max(96, Math.ceil(longest * CHAR_WIDTH) + 20);
    }

    private static void box(ObjectNode node, SceneLayout.Box box) {
        if (box == null) {
            return;
        }
        node.put("x", round(box.x()));
        node.put("y", round(box.y()));
        node.put("w", round(box.width()));
        node.put("h", round(box.height()));
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
