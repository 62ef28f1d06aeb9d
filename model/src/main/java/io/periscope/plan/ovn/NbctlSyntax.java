package io.periscope.plan.ovn;

import java.util.ArrayList;
import java.util.List;

/**
 * An OVN topology as the {@code ovn-nbctl} commands that build it in an empty northbound database,
 * in dependency order: load balancers and their groups, switches, routers with their ports,
 * policies, static routes, chassis binding and groups, then the switch ports (a router port's peer,
 * the localnet port, the management port, the pods). What {@code periscope plan} prints for an
 * OVN-Kubernetes cluster.
 */
public final class NbctlSyntax {

    private NbctlSyntax() {
    }

    public static List<String> commands(OvnTopology topology) {
        List<String> lines = new ArrayList<>();
        for (LoadBalancerGroup group : topology.loadBalancerGroups()) {
            List<String> names = new ArrayList<>();
            for (LoadBalancer lb : group.loadBalancers()) {
                lines.add("lb-add " + quote(lb.name()) + " " + lb.vip() + ":" + lb.port() + " "
                        + String.join(",", lb.backends().stream().map(LoadBalancer.Backend::toString).toList()) + " " + lb.protocol().lowerName());
                names.add(quote(lb.name()));
            }
            lines.add("create load_balancer_group name=" + group.name()
                    + (names.isEmpty() ? "" : " load_balancer=" + String.join(",", names.stream().map(n -> "@" + n).toList())));
        }
        for (LogicalSwitch sw : topology.switches()) {
            lines.add("ls-add " + sw.name());
            for (String group : sw.loadBalancerGroups()) {
                lines.add("add logical_switch " + sw.name() + " load_balancer_group " + group);
            }
        }
        for (LogicalRouter router : topology.routers()) {
            lines.add("lr-add " + router.name());
            for (RouterPort port : router.ports()) {
                lines.add("lrp-add " + router.name() + " " + port.name() + " " + port.mac() + " " + port.networkText());
            }
            for (RouterPolicy policy : router.policies()) {
                lines.add("lr-policy-add " + router.name() + " " + policy.priority() + " " + quote(policy.match()) + " "
                        + policy.action().ovnName() + policy.nexthop().map(n -> " " + n).orElse(""));
            }
            for (StaticRoute route : router.staticRoutes()) {
                lines.add("lr-route-add " + router.name() + " " + route.prefix() + " " + route.nexthop() + route.outputPort().map(p -> " " + p).orElse("")
                        + (route.policy() == StaticRoute.Policy.SRC_IP ? " --policy=src-ip" : ""));
            }
            router.chassis().ifPresent(c -> lines.add("set logical_router " + router.name() + " options:chassis=" + c));
            for (String group : router.loadBalancerGroups()) {
                lines.add("add logical_router " + router.name() + " load_balancer_group " + group);
            }
        }
        for (LogicalSwitch sw : topology.switches()) {
            for (LogicalSwitch.SwitchPort port : sw.ports()) {
                lines.add("lsp-add " + sw.name() + " " + port.name() + "  # " + port.kind().ovnName() + ": " + port.attaches());
                switch (port.kind()) {
                    case ROUTER -> {
                        lines.add("lsp-set-type " + port.name() + " router");
                        lines.add("lsp-set-options " + port.name() + " router-port=" + port.attaches().substring(port.attaches().indexOf('/') + 1));
                    }
                    case LOCALNET -> {
                        lines.add("lsp-set-type " + port.name() + " localnet");
                        lines.add("lsp-set-options " + port.name() + " network_name=" + sw.name());
                    }
                    case MANAGEMENT, POD -> {
                    }
                }
            }
        }
        return lines;
    }

    /** Bridges on the nodes, as {@code ovs-vsctl} and {@code ip} commands. */
    public static List<String> bridges(OvnTopology topology) {
        List<String> lines = new ArrayList<>();
        for (OvsBridge bridge : topology.bridges()) {
            lines.add(topology.cluster() + "/" + bridge.node() + ": ovs-vsctl add-br " + bridge.bridge() + " -- add-port " + bridge.bridge() + " "
                    + bridge.internalPort() + " -- set interface " + bridge.internalPort() + " type=internal"
                    + " -- set open . external_ids:ovn-bridge-mappings=" + bridge.logicalSwitch() + ":" + bridge.bridge()
                    + "; ip addr add " + bridge.address() + "/" + bridge.prefixLength() + " dev " + bridge.internalPort());
        }
        return lines;
    }

    private static String quote(String text) {
        return text.matches("[A-Za-z0-9_./:-]+") ? text : "\"" + text + "\"";
    }
}
