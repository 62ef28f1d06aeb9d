package io.periscope.model.globalnet;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.EgressOwnership;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where a file walks into the gap seed 004 leaves open: a cluster with several active gateways and
 * Globalnet whose egress addresses are shared, and pods that leave with a GlobalEgressIP's address
 * or their own as a headless-service backend. Replies to their connections may reach a gateway
 * without the NAT state. One warning per such cluster, naming the file's flows that start there.
 *
 * <p>Only Globalnet 2.0 has these objects and the setting that closes the gap ({@code egressOwnership:
 * per-gateway}, which the validator refuses elsewhere), so legacy Globalnet is never warned: the
 * advice would be refused.
 */
public final class SharedEgressGap {

    private SharedEgressGap() {
    }

    public static List<String> warnings(ClusterSet set) {
        List<String> warnings = new ArrayList<>();
        if (!set.globalnet().enabled() || set.globalnet().mode() != GlobalnetMode.V2) {
            return warnings;
        }
        for (Cluster cluster : set.clusters()) {
            if (!cluster.multiActiveGateways() || cluster.activeGateways().size() < 2 || cluster.egressOwnership() != EgressOwnership.SHARED) {
                continue;
            }
            List<String> reasons = new ArrayList<>();
            cluster.globalEgressIPs().stream().filter(e -> e.numberOfIPs() > 0)
                    .forEach(e -> reasons.add("GlobalEgressIP " + e.namespace() + "/" + e.name()));
            cluster.services().stream().filter(s -> s.headless() && cluster.isExported(s))
                    .forEach(s -> reasons.add("exported headless service " + s.namespace() + "/" + s.name()));
            if (reasons.isEmpty()) {
                continue;
            }
            List<String> flows = new ArrayList<>();
            for (Flow flow : set.flows()) {
                if (flow.from() instanceof FlowSource.PodSource source && source.cluster().equals(cluster.name())) {
                    cluster.pod(source.namespace(), source.pod()).flatMap(pod -> unpinned(cluster, pod))
                            .ifPresent(why -> flows.add(flow.name() + " (" + why + ")"));
                }
            }
            warnings.add("cluster " + cluster.name() + " has " + cluster.activeGateways().size() + " active gateways, Globalnet and "
                    + String.join(", ", reasons) + " with shared egress addresses: a reply may reach a gateway without the connection's"
                    + " NAT state (docs/plan.md, \"A gap seed 004 leaves open\"). "
                    + (flows.isEmpty() ? "No flow of the file starts from an affected pod. " : "Flows affected: " + String.join(", ", flows) + ". ")
                    + "Fix: set egressOwnership: per-gateway on cluster " + cluster.name() + ".");
        }
        return warnings;
    }

    /** Why a pod leaves with an address only its cluster's gateways know, if it does. */
    private static Optional<String> unpinned(Cluster cluster, Pod pod) {
        if (pod.hostNetwork()) {
            return Optional.empty();
        }
        // A pod-selector object wins over a namespace one (seed 002), so it is named first.
        Optional<String> egress = cluster.globalEgressIPs().stream()
                .filter(e -> e.numberOfIPs() > 0 && e.namespace().equals(pod.namespace()) && e.podSelector().map(s -> s.matches(pod.labels())).orElse(true))
                .sorted(Comparator.comparing(e -> e.podSelector().isEmpty()))
                .map(e -> "GlobalEgressIP " + e.namespace() + "/" + e.name()).findFirst();
        if (egress.isPresent()) {
            return egress;
        }
        return cluster.services().stream().filter(s -> s.headless() && cluster.isExported(s) && cluster.endpointsOf(s).contains(pod))
                .map(Service::name).findFirst().map(s -> "backend of headless " + pod.namespace() + "/" + s);
    }
}
