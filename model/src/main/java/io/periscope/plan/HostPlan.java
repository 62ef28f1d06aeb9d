package io.periscope.plan;

import java.util.List;
import java.util.Optional;

/**
 * Everything about one network namespace. {@code environment} is what exists without Submariner
 * (the CNI's routes, kube-proxy's chains; built by the lab, present on real nodes);
 * {@code submariner} is what Periscope's agents own and program. The simulator runs both; the
 * agents only ever touch {@code submariner}.
 *
 * @param node   for a pod, the node it runs on
 * @param role   what kind of namespace this is
 */
public record HostPlan(HostId id, HostRole role, Optional<String> node, List<Interface> interfaces,
                       DataplanePlan environment, DataplanePlan submariner) {

    public HostPlan {
        interfaces = List.copyOf(interfaces);
    }

    /** Both halves, as the kernel of this host sees them. */
    public DataplanePlan effective() {
        return environment.merge(submariner);
    }

    public enum HostRole { GATEWAY, NODE, POD }
}
