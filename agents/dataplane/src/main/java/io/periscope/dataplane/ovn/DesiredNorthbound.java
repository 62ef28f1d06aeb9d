package io.periscope.dataplane.ovn;

import io.periscope.plan.ovn.LoadBalancer;
import io.periscope.plan.ovn.LoadBalancerGroup;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The rows a plan's OVN topology asks the northbound database to hold, in the columns' stored form. */
public final class DesiredNorthbound {

    private DesiredNorthbound() {
    }

    public static NorthboundState of(OvnTopology topology) {
        List<NbRow> rows = new ArrayList<>();
        for (LoadBalancerGroup group : topology.loadBalancerGroups()) {
            for (LoadBalancer lb : group.loadBalancers()) {
                String backends = String.join(",", lb.backends().stream().map(LoadBalancer.Backend::toString).toList());
                rows.add(new NbRow.LoadBalancerRow(lb.name(), lb.protocol().lowerName(), new TreeMap<>(Map.of(lb.vip() + ":" + lb.port(), backends))));
            }
            rows.add(new NbRow.LoadBalancerGroupRow(group.name(), new TreeSet<>(group.loadBalancers().stream().map(LoadBalancer::name).toList())));
        }
        for (LogicalSwitch sw : topology.switches()) {
            rows.add(new NbRow.SwitchRow(sw.name(), new TreeSet<>(sw.loadBalancerGroups())));
            for (LogicalSwitch.SwitchPort port : sw.ports()) {
                TreeMap<String, String> options = new TreeMap<>();
                String type = switch (port.kind()) {
                    case ROUTER -> {
                        options.put("router-port", port.attaches().substring(port.attaches().indexOf('/') + 1));
                        yield "router";
                    }
                    case LOCALNET -> {
                        // ovn-controller joins the port to the bridge the node maps this network to (ovn-bridge-mappings).
                        options.put("network_name", sw.name());
                        yield "localnet";
                    }
                    case MANAGEMENT, POD -> "";
                };
                rows.add(new NbRow.SwitchPortRow(sw.name(), port.name(), type, options, port.ovnAddresses()));
            }
        }
        for (LogicalRouter router : topology.routers()) {
            rows.add(new NbRow.RouterRow(router.name(), router.chassis(), new TreeSet<>(router.loadBalancerGroups())));
            for (RouterPort port : router.ports()) {
                rows.add(new NbRow.RouterPortRow(router.name(), port.name(), port.mac().toString(), List.of(port.networkText())));
            }
            for (RouterPolicy policy : router.policies()) {
                rows.add(new NbRow.PolicyRow(router.name(), policy.priority(), policy.match(), policy.action().ovnName(),
                        policy.nexthop().map(n -> List.of(n.toString())).orElse(List.of())));
            }
            for (StaticRoute route : router.staticRoutes()) {
                rows.add(new NbRow.RouteRow(router.name(), route.prefix().toString(), route.nexthop().toString(), route.outputPort(),
                        route.policy().ovnName(), route.submariner()));
            }
        }
        return NorthboundState.of(rows);
    }
}
