package io.periscope.lab.layout;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.Interface;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code ip -batch} input that builds a lab's namespaces and wires them, as text. Creating a
 * whole lab takes a handful of programs this way instead of one per interface, address and route.
 */
public final class LabBatches {

    private LabBatches() {
    }

    /** Run in the machine's own namespace: creates every namespace. */
    public static String addNamespaces(List<String> namespaces) {
        return namespaces.stream().map(ns -> "netns add " + ns + "\n").collect(Collectors.joining());
    }

    /** Run in the machine's own namespace: deleting a namespace also deletes every interface inside it. */
    public static String deleteNamespaces(List<String> namespaces) {
        return namespaces.stream().map(ns -> "netns del " + ns + "\n").collect(Collectors.joining());
    }

    /**
     * Run in the machine's own namespace: every veth pair, each end created directly inside its
     * namespace ({@code netns} on both ends), with the plan's MAC where it gives one.
     */
    public static String veths(LabLayout layout) {
        StringBuilder text = new StringBuilder();
        for (VethPair pair : layout.veths()) {
            text.append("link add ").append(end(pair.first())).append(" type veth peer name ").append(end(pair.second())).append('\n');
        }
        return text.toString();
    }

    private static String end(VethEnd end) {
        return end.name() + end.mac().map(mac -> " address " + mac).orElse("") + " netns " + end.namespace();
    }

    /** Run inside a switch namespace: the bridge, its ports, everything up. */
    public static String switchBatch(SwitchNamespace sw) {
        StringBuilder text = new StringBuilder();
        text.append("link set lo up\n");
        // No STP and no forwarding delay: a port forwards as soon as it is up, and the bridge sends
        // nothing of its own onto the segment.
        text.append("link add ").append(SwitchNamespace.BRIDGE).append(" type bridge stp_state 0 forward_delay 0\n");
        for (SwitchPort port : sw.ports()) {
            text.append("link set ").append(port.name()).append(" master ").append(SwitchNamespace.BRIDGE);
            if (port.mtu() != Interface.DEFAULT_MTU) {
                text.append(" mtu ").append(port.mtu());
            }
            text.append(" up\n");
        }
        text.append("link set ").append(SwitchNamespace.BRIDGE).append(" up\n");
        return text.toString();
    }

    /**
     * Run inside a host namespace once its veths exist: loopback, the port-less bridges standing in for
     * interfaces the plan plugs into nothing ({@code cni0}; the kernel here has no {@code dummy}),
     * addresses, links up, then the environment's nexthops, routes and rules. Routes are appended in
     * plan order, so where the plan lists two routes to one destination the kernel, like the plan,
     * uses the first.
     */
    public static String hostBatch(HostNamespace host) {
        StringBuilder text = new StringBuilder();
        text.append("link set lo up\n");
        for (Interface iface : host.plan().interfaces()) {
            if (iface.segment().isEmpty()) {
                text.append("link add ").append(iface.name()).append(" address ").append(iface.mac()).append(" type bridge\n");
            }
        }
        for (Interface iface : host.plan().interfaces()) {
            for (Ipv4Address address : iface.addresses()) {
                text.append("addr add ").append(address).append("/32 dev ").append(iface.name()).append('\n');
            }
            text.append("link set ").append(iface.name());
            if (iface.mtu() != Interface.DEFAULT_MTU) {
                text.append(" mtu ").append(iface.mtu());
            }
            text.append(" up\n");
        }
        routing(host.plan().environment()).forEach(line -> text.append(line).append('\n'));
        return text.toString();
    }

    /**
     * The netfilter rules of the host's environment layer (what the node brings before Submariner:
     * a masquerading CNI's chain, OVN-Kubernetes' external-IP DNAT) as {@code iptables-restore
     * --noflush} input, written before the agents start: they keep their own rules first in the
     * built-in chains, ahead of these, as on a real node where the CNI was there first. Empty when the
     * layer has none.
     */
    public static Optional<String> environmentRules(HostNamespace host) {
        List<NetfilterTable> tables = host.plan().environment().netfilter();
        if (tables.stream().allMatch(t -> t.chains().stream().allMatch(c -> c.rules().isEmpty()))) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        for (NetfilterTable table : tables) {
            text.append('*').append(table.table().iptablesName()).append('\n');
            for (Chain chain : table.chains()) {
                if (!table.table().isBuiltin(chain.name())) {
                    text.append(':').append(chain.name()).append(" - [0:0]\n");
                }
            }
            for (Chain chain : table.chains()) {
                chain.rules().forEach(rule -> text.append(IptablesSyntax.appendLine(chain.name(), rule)).append('\n'));
            }
            text.append("COMMIT\n");
        }
        return Optional.of(text.toString());
    }

    /** The routing part of a plan layer as batch lines: nexthop objects, groups, routes, rules. */
    public static List<String> routing(DataplanePlan layer) {
        List<String> lines = new ArrayList<>();
        for (NexthopObject object : layer.nexthops()) {
            lines.add("nexthop add id " + object.id() + " via " + object.via() + " dev " + object.device() + (object.onlink() ? " onlink" : ""));
        }
        for (NexthopGroup group : layer.nexthopGroups()) {
            lines.add("nexthop add id " + group.id() + " group " + group.members().stream()
                    .map(m -> m.weight() == 1 ? String.valueOf(m.nexthopId()) : m.nexthopId() + "," + m.weight())
                    .collect(Collectors.joining("/")) + (group.resilient() ? " type resilient buckets " + group.buckets() : ""));
        }
        for (Route route : layer.routes()) {
            lines.add("route append " + route(route));
        }
        for (PolicyRule rule : layer.rules()) {
            lines.add("rule add " + rule(rule));
        }
        return lines;
    }

    static String route(Route route) {
        StringBuilder text = new StringBuilder();
        if (route.type() != RouteType.UNICAST) {
            text.append(route.type().name().toLowerCase(Locale.ROOT)).append(' ');
        }
        text.append(route.destination()).append(" table ").append(route.table()).append(" metric ").append(route.metric())
                .append(" proto ").append(route.protocol().iprouteName());
        route.source().ifPresent(src -> text.append(" src ").append(src));
        if (route.nexthopId().isPresent()) {
            text.append(" nhid ").append(route.nexthopId().getAsInt());
        } else if (route.nexthops().size() == 1) {
            text.append(' ').append(path(route.nexthops().getFirst()));
        } else {
            for (Nexthop nexthop : route.nexthops()) {
                text.append(" nexthop ").append(path(nexthop)).append(" weight ").append(nexthop.weight());
            }
        }
        return text.toString();
    }

    private static String path(Nexthop nexthop) {
        return nexthop.via().map(v -> "via " + v + " ").orElse("") + "dev " + nexthop.device() + (nexthop.onlink() ? " onlink" : "");
    }

    static String rule(PolicyRule rule) {
        StringBuilder text = new StringBuilder("pref ").append(rule.priority());
        rule.from().ifPresent(f -> text.append(" from ").append(f));
        rule.to().ifPresent(t -> text.append(" to ").append(t));
        rule.fwmark().ifPresent(m -> text.append(" fwmark 0x").append(Integer.toHexString(m)));
        rule.inInterface().ifPresent(i -> text.append(" iif ").append(i));
        return text.append(" lookup ").append(rule.table()).toString();
    }
}
