package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.Route;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The gateways a node load-balances to, read from its own plan: every nexthop address that is one of
 * several choices (a multipath route's nexthop, a member of a nexthop group of two or more). Each is
 * probed at that very address, which the kernel reaches through the tunnel the traffic takes
 * ({@code vx-submariner} to a local gateway, the cable's device to a remote one), so a probe's answer
 * speaks for the path. A nexthop with no alternative is not watched: withdrawing it would gain nothing.
 */
public final class HealthTargets {

    private HealthTargets() {
    }

    /**
     * What people call the gateway behind each tunnel address of a cluster set's plan: every address
     * of a gateway's VXLAN devices, as {@code cluster/node}.
     */
    public static Function<Ipv4Address, String> gatewayNames(ClusterSetPlan plan) {
        Map<Ipv4Address, String> names = new TreeMap<>();
        for (HostPlan host : plan.hosts().values()) {
            if (host.role() == HostPlan.HostRole.GATEWAY) {
                for (VxlanDevice device : host.submariner().vxlanDevices()) {
                    names.put(device.address(), host.id().cluster() + "/" + host.id().name());
                }
            }
        }
        return names::get;
    }

    /**
     * @param names what people call the gateway behind a nexthop address ({@code cluster/node}); an
     *              address without a name is shown as itself
     */
    public static List<HealthTarget> of(DataplanePlan plan, Function<Ipv4Address, String> names) {
        Set<Ipv4Address> choices = new TreeSet<>();
        for (Route route : plan.routes()) {
            if (route.multipath()) {
                route.nexthops().stream().map(Nexthop::via).flatMap(java.util.Optional::stream).forEach(choices::add);
            }
        }
        Map<Integer, NexthopObject> objects = plan.nexthops().stream().collect(Collectors.toMap(NexthopObject::id, Function.identity()));
        for (NexthopGroup group : plan.nexthopGroups()) {
            if (group.members().size() > 1) {
                group.members().stream().map(member -> objects.get(member.nexthopId()))
                        .filter(java.util.Objects::nonNull).map(NexthopObject::via).forEach(choices::add);
            }
        }
        Map<Ipv4Address, HealthTarget> targets = new TreeMap<>();
        for (Ipv4Address address : choices) {
            String name = names.apply(address);
            targets.put(address, new HealthTarget(name == null ? address.toString() : name, address, Set.of(address)));
        }
        return List.copyOf(targets.values());
    }
}
