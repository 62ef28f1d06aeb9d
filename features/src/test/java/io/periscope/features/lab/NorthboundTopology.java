package io.periscope.features.lab;

import io.periscope.dataplane.ovn.NbRow;
import io.periscope.dataplane.ovn.NorthboundState;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.link.MacAddress;
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
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cluster's logical network as its real northbound database holds it ({@code ovn-nbctl list}),
 * in the plan's vocabulary, so that the OVN steps read the lab's database rather than the plan the
 * lab was built from. What the database holds in forms the plan has no word for is left out: a
 * policy whose match is not a plain source and destination prefix (OVN-Kubernetes' own, on
 * {@code inport} or {@code ip4.dst == $set}). The topology has no OVS bridges: those are each node's,
 * not the database's.
 */
final class NorthboundTopology {

    private static final Pattern PREFIX_MATCH = Pattern.compile("(?:ip4\\.src == (\\S+))?(?: && )?(?:ip4\\.dst == (\\S+))?");

    private NorthboundTopology() {
    }

    static OvnTopology of(String cluster, NorthboundState state) {
        List<NbRow> rows = state.rows().stream().map(NorthboundState.Stored::row).toList();
        Map<String, String> switchOfRouterPort = new TreeMap<>();
        for (NbRow row : rows) {
            if (row instanceof NbRow.SwitchPortRow port && port.type().equals("router") && port.options().containsKey("router-port")) {
                switchOfRouterPort.put(port.options().get("router-port"), port.logicalSwitch());
            }
        }
        List<LogicalRouter> routers = new ArrayList<>();
        List<LogicalSwitch> switches = new ArrayList<>();
        List<LoadBalancerGroup> groups = new ArrayList<>();
        Map<String, NbRow.LoadBalancerRow> balancers = new TreeMap<>();
        rows.stream().filter(r -> r instanceof NbRow.LoadBalancerRow).map(r -> (NbRow.LoadBalancerRow) r).forEach(lb -> balancers.put(lb.name(), lb));
        for (NbRow row : rows) {
            switch (row) {
                case NbRow.RouterRow router -> routers.add(new LogicalRouter(router.name(), routerPorts(rows, router.name(), switchOfRouterPort),
                        policies(rows, router.name()), routes(rows, router.name()), router.chassis(), List.copyOf(router.loadBalancerGroups())));
                case NbRow.SwitchRow sw -> switches.add(new LogicalSwitch(sw.name(), switchPorts(rows, sw.name()), List.copyOf(sw.loadBalancerGroups())));
                case NbRow.LoadBalancerGroupRow group -> groups.add(new LoadBalancerGroup(group.name(), group.loadBalancers().stream()
                        .map(balancers::get).filter(java.util.Objects::nonNull).flatMap(lb -> loadBalancers(lb).stream()).toList()));
                default -> { }
            }
        }
        return new OvnTopology(cluster, routers, switches, groups, List.of());
    }

    private static List<RouterPort> routerPorts(List<NbRow> rows, String router, Map<String, String> switchOfRouterPort) {
        List<RouterPort> ports = new ArrayList<>();
        for (NbRow row : rows) {
            if (row instanceof NbRow.RouterPortRow port && port.router().equals(router) && !port.networks().isEmpty()) {
                String network = port.networks().getFirst();
                Ipv4Address address = Ipv4Address.parse(network.substring(0, network.indexOf('/')));
                int length = Integer.parseInt(network.substring(network.indexOf('/') + 1));
                ports.add(new RouterPort(port.name(), MacAddress.parse(port.mac()), address, Ipv4Prefix.containing(address, length),
                        switchOfRouterPort.getOrDefault(port.name(), "")));
            }
        }
        return ports;
    }

    private static List<RouterPolicy> policies(List<NbRow> rows, String router) {
        List<RouterPolicy> policies = new ArrayList<>();
        for (NbRow row : rows) {
            if (row instanceof NbRow.PolicyRow policy && policy.router().equals(router)) {
                Matcher match = PREFIX_MATCH.matcher(policy.match().strip());
                if (!match.matches() || match.group(1) == null && match.group(2) == null) {
                    continue;
                }
                RouterPolicy.Action action = RouterPolicy.Action.valueOf(policy.action().toUpperCase(Locale.ROOT));
                if (action == RouterPolicy.Action.REROUTE && policy.nexthops().isEmpty()) {
                    continue;
                }
                policies.add(new RouterPolicy(policy.priority(), Optional.ofNullable(match.group(1)).map(Ipv4Prefix::parse),
                        Optional.ofNullable(match.group(2)).map(Ipv4Prefix::parse), action,
                        policy.nexthops().stream().findFirst().map(Ipv4Address::parse)));
            }
        }
        return policies;
    }

    private static List<StaticRoute> routes(List<NbRow> rows, String router) {
        List<StaticRoute> routes = new ArrayList<>();
        for (NbRow row : rows) {
            if (row instanceof NbRow.RouteRow route && route.router().equals(router)) {
                routes.add(new StaticRoute(Ipv4Prefix.parse(route.prefix()), Ipv4Address.parse(route.nexthop()), route.outputPort(),
                        route.policy().equals("src-ip") ? StaticRoute.Policy.SRC_IP : StaticRoute.Policy.DST_IP, route.submariner()));
            }
        }
        return routes;
    }

    private static List<LogicalSwitch.SwitchPort> switchPorts(List<NbRow> rows, String logicalSwitch) {
        List<LogicalSwitch.SwitchPort> ports = new ArrayList<>();
        for (NbRow row : rows) {
            if (row instanceof NbRow.SwitchPortRow port && port.logicalSwitch().equals(logicalSwitch)) {
                LogicalSwitch.Kind kind = switch (port.type()) {
                    case "router" -> LogicalSwitch.Kind.ROUTER;
                    case "localnet" -> LogicalSwitch.Kind.LOCALNET;
                    default -> port.name().startsWith("k8s-") ? LogicalSwitch.Kind.MANAGEMENT : LogicalSwitch.Kind.POD;
                };
                String attaches = port.options().getOrDefault("router-port", port.options().getOrDefault("network_name", ""));
                Optional<String[]> macAndIp = port.addresses().stream().map(a -> a.split(" ")).filter(a -> a.length >= 2).findFirst();
                ports.add(new LogicalSwitch.SwitchPort(port.name(), kind, attaches, macAndIp.map(a -> MacAddress.parse(a[0])),
                        macAndIp.map(a -> Ipv4Address.parse(a[1]))));
            }
        }
        return ports;
    }

    /** One plan load balancer per VIP of the row ({@code ip:port} to {@code ip:port,ip:port}). */
    private static List<LoadBalancer> loadBalancers(NbRow.LoadBalancerRow row) {
        List<LoadBalancer> balancers = new ArrayList<>();
        Protocol protocol = Protocol.valueOf(row.protocol().isEmpty() ? "TCP" : row.protocol().toUpperCase(Locale.ROOT));
        row.vips().forEach((vip, backends) -> {
            List<LoadBalancer.Backend> to = new ArrayList<>();
            for (String backend : backends.split(",")) {
                if (!backend.isBlank()) {
                    to.add(new LoadBalancer.Backend(Ipv4Address.parse(backend.substring(0, backend.lastIndexOf(':'))),
                            Integer.parseInt(backend.substring(backend.lastIndexOf(':') + 1))));
                }
            }
            balancers.add(new LoadBalancer(row.name(), Ipv4Address.parse(vip.substring(0, vip.lastIndexOf(':'))),
                    Integer.parseInt(vip.substring(vip.lastIndexOf(':') + 1)), protocol, to));
        });
        return balancers;
    }
}
