package io.periscope.lab.probe;

import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;

import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a host's interface meets an OVN cluster's logical network: the logical switch and the
 * logical switch port it is bound to (a pod's {@code eth0} to {@code NAMESPACE_POD}, a node's
 * {@code ovn-k8s-mp0} to {@code k8s-NODE}, the gateway's {@code ovn-k8s-sub0} to
 * {@code submariner_gateway}'s localnet port), as the plan's OVN topology names them. A packet
 * that leaves a host by such an interface is in OVN's hands until it comes out of another one.
 *
 * @param routers the cluster's logical routers: the logical hops the simulator shows
 */
public record OvnPort(String cluster, String logicalSwitch, String port, Set<String> routers) {

    /** The OVN port {@code host}'s interface {@code iface} is bound to, if the host is in an OVN cluster and the interface on one. */
    public static Optional<OvnPort> of(ClusterSetPlan plan, HostId host, String iface) {
        Optional<OvnTopology> topology = plan.ovn(host.cluster());
        if (topology.isEmpty()) {
            return Optional.empty();
        }
        String attaches = host + " " + iface;
        for (LogicalSwitch logicalSwitch : topology.get().switches()) {
            for (LogicalSwitch.SwitchPort port : logicalSwitch.ports()) {
                if (port.kind() != LogicalSwitch.Kind.ROUTER && port.attaches().equals(attaches)) {
                    return Optional.of(new OvnPort(host.cluster(), logicalSwitch.name(), port.name(),
                            topology.get().routers().stream().map(LogicalRouter::name).collect(Collectors.toUnmodifiableSet())));
                }
            }
        }
        return Optional.empty();
    }
}
