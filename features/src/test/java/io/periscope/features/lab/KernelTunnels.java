package io.periscope.features.lab;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.HostId;
import io.periscope.plan.link.FdbEntry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cables between clusters as the lab's gateways hold them: a VXLAN cable is a forwarding entry
 * ({@code bridge fdb}) whose destination is another cluster's node, a WireGuard cable a peer of
 * {@code wireguard-go} ({@code wg show DEVICE endpoints}) whose endpoint is one. The remote
 * addresses are the nodes' underlay or public addresses, which say which node, and so which
 * cluster, is at the other end.
 *
 * @param tunnels every cable end: from a gateway to a node of another cluster
 */
record KernelTunnels(Set<Tunnel> tunnels) {

    /** One end of a cable, seen on {@code from}'s kernel. */
    record Tunnel(HostId from, HostId to, CableDriver driver) {
    }

    KernelTunnels {
        tunnels = Set.copyOf(tunnels);
    }

    /**
     * @param fdb       each gateway's forwarding entries
     * @param wireGuard each gateway's WireGuard peers' endpoint addresses
     */
    static KernelTunnels of(ClusterSet set, Map<HostId, List<FdbEntry>> fdb, Map<HostId, List<Ipv4Address>> wireGuard) {
        Map<Ipv4Address, HostId> nodes = new HashMap<>();
        for (Cluster cluster : set.clusters()) {
            for (Node node : cluster.nodes()) {
                nodes.put(node.ip(), HostId.node(cluster.name(), node.name()));
                node.publicIp().ifPresent(ip -> nodes.put(ip, HostId.node(cluster.name(), node.name())));
            }
        }
        Set<Tunnel> tunnels = new LinkedHashSet<>();
        fdb.forEach((gateway, entries) -> entries.forEach(entry -> remote(nodes, gateway, entry.destination())
                .ifPresent(to -> tunnels.add(new Tunnel(gateway, to, CableDriver.VXLAN)))));
        wireGuard.forEach((gateway, endpoints) -> endpoints.forEach(endpoint -> remote(nodes, gateway, endpoint)
                .ifPresent(to -> tunnels.add(new Tunnel(gateway, to, CableDriver.WIREGUARD)))));
        return new KernelTunnels(tunnels);
    }

    /** The node at {@code address} when it belongs to another cluster than {@code gateway}. */
    private static Optional<HostId> remote(Map<Ipv4Address, HostId> nodes, HostId gateway, Ipv4Address address) {
        return Optional.ofNullable(nodes.get(address)).filter(node -> !node.cluster().equals(gateway.cluster()));
    }

    /**
     * The pairs of clusters with a cable each way, by the driver the kernels show. A pair the
     * policies gave Libreswan shows VXLAN, which the lab builds in its place ({@code LabCables}):
     * it is reported as the chosen driver. Options and the policies that chose the pair are the
     * {@code chosen} connection's: a kernel does not say which policy put a cable there.
     */
    List<ClusterGraph.Connection> connections(List<ClusterGraph.Connection> chosen) {
        List<ClusterGraph.Connection> connections = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Tunnel tunnel : tunnels) {
            String a = tunnel.from().cluster();
            String b = tunnel.to().cluster();
            boolean back = tunnels.stream().anyMatch(t -> t.from().cluster().equals(b) && t.to().cluster().equals(a)
                    && t.driver() == tunnel.driver());
            String left = a.compareTo(b) < 0 ? a : b;
            String right = left.equals(a) ? b : a;
            if (!back || !seen.add(left + "\0" + right + "\0" + tunnel.driver())) {
                continue;
            }
            Optional<ClusterGraph.Connection> planned = chosen.stream()
                    .filter(c -> Set.of(c.left(), c.right()).equals(Set.of(a, b))).findFirst();
            CableDriverSpec driver = planned.map(ClusterGraph.Connection::cableDriver)
                    .filter(spec -> spec.name() == tunnel.driver()
                            || spec.name() == CableDriver.LIBRESWAN && tunnel.driver() == CableDriver.VXLAN)
                    .orElse(new CableDriverSpec(tunnel.driver(), Map.of()));
            connections.add(new ClusterGraph.Connection(left, right, driver,
                    planned.flatMap(ClusterGraph.Connection::connectivityPolicy),
                    planned.flatMap(ClusterGraph.Connection::connectionPolicyIndex)));
        }
        return connections;
    }

    /** The gateways of other clusters whose kernels hold a cable to {@code gateway}. */
    Set<HostId> peersOf(HostId gateway) {
        Set<HostId> peers = new LinkedHashSet<>();
        tunnels.stream().filter(t -> t.to().equals(gateway)).forEach(t -> peers.add(t.from()));
        return peers;
    }
}
