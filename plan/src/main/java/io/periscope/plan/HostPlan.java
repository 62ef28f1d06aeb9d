package io.periscope.plan;

import java.util.List;
import java.util.Optional;

/**
 * Everything about one network namespace, in three layers. {@code environment} is what exists
 * without Submariner (the CNI's routes, sysctls; built by the lab, present on real nodes);
 * {@code kubeProxy} is kube-proxy's service chains, one instance shared by every node of a cluster
 * because kube-proxy programs the same chains everywhere (and chains equal in several clusters, the
 * same service with the same endpoints, one record for all of them); {@code submariner} is what Periscope's
 * agents own and program. The simulator runs all three; the agents only ever touch {@code submariner}.
 *
 * @param node   for a pod, the node it runs on
 * @param role   what kind of namespace this is
 */
public record HostPlan(HostId id, HostRole role, Optional<String> node, List<Interface> interfaces,
                       DataplanePlan environment, DataplanePlan kubeProxy, DataplanePlan submariner) {

    public HostPlan {
        interfaces = List.copyOf(interfaces);
    }

    /** A host without kube-proxy (a pod, or a hand-built plan). */
    public HostPlan(HostId id, HostRole role, Optional<String> node, List<Interface> interfaces,
                    DataplanePlan environment, DataplanePlan submariner) {
        this(id, role, node, interfaces, environment, DataplanePlan.EMPTY, submariner);
    }

    /** All layers, as the kernel of this host sees them (Periscope's jumps first in built-in chains). */
    public DataplanePlan effective() {
        return environment.merge(kubeProxy).merge(submariner);
    }

    public enum HostRole { GATEWAY, NODE, POD }
}
