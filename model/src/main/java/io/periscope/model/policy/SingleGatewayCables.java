package io.periscope.model.policy;

import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Node;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Cables that reach one gateway of a cluster with several active gateways: a combination seed 004
 * rules out ("only the VXLAN tunnel driver is supported due to issues faced with load-balancing
 * encrypted IPSEC traffic"). WireGuard gives a remote cluster's CIDRs to one peer (its allowed IPs)
 * and Libreswan has one XFRM policy per pair of subnets, so Periscope, as a file asks, points both at
 * the cluster's first active gateway: whatever the other gateways send or receive for that pair is
 * dropped, which the simulator shows but the file gave no sign of. One warning per such connection,
 * naming the two clusters, the cable, the crowded cluster's gateways and the file's flows between the two.
 */
public final class SingleGatewayCables {

    private static final Set<CableDriver> ONE_PEER_PER_CLUSTER = Set.of(CableDriver.WIREGUARD, CableDriver.LIBRESWAN);

    private SingleGatewayCables() {
    }

    public static List<String> warnings(ClusterSet set) {
        List<String> warnings = new ArrayList<>();
        for (ClusterGraph.Connection connection : ClusterGraph.of(set).connections()) {
            CableDriver driver = connection.cableDriver().name();
            if (!ONE_PEER_PER_CLUSTER.contains(driver)) {
                continue;
            }
            List<Cluster> crowded = set.clusters().stream()
                    .filter(c -> c.name().equals(connection.left()) || c.name().equals(connection.right()))
                    .filter(c -> c.multiActiveGateways() && c.activeGateways().size() > 1).toList();
            if (crowded.isEmpty()) {
                continue;
            }
            List<String> gateways = crowded.stream().map(c -> "cluster " + c.name() + " has " + c.activeGateways().size()
                    + " active gateways (" + String.join(", ", c.activeGateways().stream().map(Node::name).toList()) + ")").toList();
            List<String> flows = set.flows().stream().filter(f -> between(set, f, connection.left(), connection.right()))
                    .map(Flow::name).toList();
            String cable = "the " + driver.yamlName() + " cable between " + connection.left() + " and " + connection.right()
                    + connection.connectionPolicyIndex().map(i -> " (connectionPolicies[" + i + "])").orElse(" (defaults.cableDriver)");
            warnings.add(cable + " reaches one gateway of each cluster, but " + String.join(" and ", gateways) + ": "
                    + why(driver) + " Seed 004 supports several active gateways with the vxlan cable only (docs/topology.md,"
                    + " \"Multiple active gateways and the cable driver\"). "
                    + (flows.isEmpty() ? "No flow of the file runs between the two. " : "Flows affected: " + String.join(", ", flows) + ". ")
                    + "Fix: connect " + connection.left() + " and " + connection.right() + " with the vxlan cable, or set multiActiveGateways:"
                    + " false on " + String.join(" and ", crowded.stream().map(Cluster::name).toList()) + ".");
        }
        return warnings;
    }

    private static String why(CableDriver driver) {
        return switch (driver) {
            case WIREGUARD -> "WireGuard gives a remote cluster's CIDRs to one peer (its allowed IPs), the first active gateway's, so"
                    + " traffic and replies that pass another gateway are dropped.";
            case LIBRESWAN -> "Libreswan has one IPsec tunnel per pair of subnets, to the first active gateway, so what passes"
                    + " another gateway finds no security association and is dropped.";
            case VXLAN -> throw new IllegalArgumentException("the vxlan cable reaches every active gateway");
        };
    }

    /** Whether a flow starts in one of the two clusters and is meant for the other, as far as its target names a cluster. */
    private static boolean between(ClusterSet set, Flow flow, String a, String b) {
        String from = flow.from().cluster();
        if (!from.equals(a) && !from.equals(b)) {
            return false;
        }
        String other = from.equals(a) ? b : a;
        return switch (flow.to()) {
            case FlowTarget.PodTarget pod -> pod.cluster().equals(other);
            case FlowTarget.DnsTarget dns -> set.cluster(other).map(c -> exportsTheName(c, dns)).orElse(false);
            case FlowTarget.AddressTarget address -> set.cluster(other)
                    .map(c -> c.podCidrs().stream().anyMatch(p -> p.contains(address.address()))
                            || c.serviceCidrs().stream().anyMatch(p -> p.contains(address.address())))
                    .orElse(false);
        };
    }

    /** A clusterset name the cluster answers: it exports the service, and the name asks for it or for any cluster. */
    private static boolean exportsTheName(Cluster cluster, FlowTarget.DnsTarget target) {
        String[] labels = target.labels();
        boolean asked = target.askedCluster().map(cluster.name()::equals).orElse(true);
        return asked && cluster.service(labels[labels.length - 1], labels[labels.length - 2]).map(cluster::isExported).orElse(false);
    }
}
