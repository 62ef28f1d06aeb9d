package io.periscope.planner;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The active gateways one node considers down, as {@code cluster/node}: what its health checker
 * says right now. The planner takes it as input so that ownership moves the way a re-plan without
 * those gateways would move it ({@code trace --fail}): under per-gateway egress ownership a down
 * gateway's headless pods get the owner rendezvous hashing picks among the live gateways, on the pod's
 * node (its source rule) and on every remote gateway (the metric-98 route per address). Everything
 * else a down gateway owned stays its own: its ClusterGlobalEgressIP and its slices of the
 * GlobalEgressIPs name connections whose NAT state only it held. A gateway stays in every other
 * part of the plan (its tunnel, its owner table, the multipath routes, whose dead choices the
 * agent's nexthop withdrawal takes out), so nothing else changes and its return is a plan without it
 * here.
 *
 * <p>Each node plans with its own view: a worker knows its own cluster's gateways, a gateway the
 * remote gateways it load-balances to. When every active gateway of a cluster is down there is no
 * better owner, and each keeps what it owned.
 */
public record DownGateways(Set<String> names) {

    public static final DownGateways NONE = new DownGateways(Set.of());

    public DownGateways {
        names = Collections.unmodifiableSet(new TreeSet<>(names));
    }

    public static DownGateways of(Collection<String> clusterSlashNode) {
        return clusterSlashNode.isEmpty() ? NONE : new DownGateways(Set.copyOf(clusterSlashNode));
    }

    public boolean isEmpty() {
        return names.isEmpty();
    }

    public boolean contains(Cluster cluster, Node node) {
        return names.contains(cluster.name() + "/" + node.name());
    }

    /** The cluster's active gateways not considered down; all of them when every one is. */
    public List<Node> live(Cluster cluster) {
        List<Node> active = cluster.activeGateways();
        if (names.isEmpty()) {
            return active;
        }
        List<Node> live = active.stream().filter(g -> !contains(cluster, g)).toList();
        return live.isEmpty() ? active : live;
    }
}
