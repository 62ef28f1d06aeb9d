package io.periscope.lab.layout;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Names;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.routing.Route;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
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
     * Run inside a host namespace once its veths exist: the {@link #hostSteps} as {@code ip -batch} input.
     */
    public static String hostBatch(HostNamespace host) {
        return batch(hostSteps(host));
    }

    /** Steps as {@code ip -batch} input, one line each. */
    public static String batch(List<HostStep> steps) {
        return steps.stream().map(step -> step.ipBatchLine() + "\n").collect(Collectors.joining());
    }

    /**
     * What a host namespace needs once its veths exist: loopback, the port-less bridges standing in for
     * interfaces the plan plugs into nothing ({@code cni0}; the kernel here has no {@code dummy}),
     * addresses, links up, then the environment's nexthops, routes and rules. Routes are appended in
     * plan order, so where the plan lists two routes to one destination the kernel, like the plan,
     * uses the first.
     */
    public static List<HostStep> hostSteps(HostNamespace host) {
        List<HostStep> steps = new ArrayList<>();
        steps.add(HostStep.LinkUp.loopback());
        List<String> ovn = ovnInterfaceNames(host);
        for (Interface iface : host.plan().interfaces()) {
            if (iface.segment().isEmpty() && !ovn.contains(iface.name())) {
                steps.add(new HostStep.BridgeAdd(iface.name(), iface.mac()));
            }
        }
        for (Interface iface : host.plan().interfaces()) {
            if (!ovn.contains(iface.name())) {
                addressAndLink(steps, iface);
            }
        }
        steps.addAll(routingSteps(host.plan().environment(), route -> !throughAny(route, ovn)));
        return steps;
    }

    /**
     * Run inside a host namespace once OVN has plugged its interfaces on OVN logical switches (a
     * node's {@code ovn-k8s-mp0}, a pod's {@code eth0}): their addresses, and the environment's routes
     * through them, which {@link #hostBatch} left out. Empty when the host has none.
     */
    public static Optional<String> ovnInterfaces(HostNamespace host) {
        List<String> ovn = ovnInterfaceNames(host);
        if (ovn.isEmpty()) {
            return Optional.empty();
        }
        List<HostStep> steps = new ArrayList<>();
        for (Interface iface : host.plan().interfaces()) {
            // ovn-k8s-sub0 is Submariner's: the agents make br-submariner with it and give it its address.
            if (OvnTopology.isSegment(iface.segment()) && !iface.name().equals(Names.OVN_K8S_SUB0)) {
                addressAndLink(steps, iface);
            }
        }
        steps.addAll(routingSteps(host.plan().environment(), route -> throughAny(route, ovn)));
        return Optional.of(batch(steps));
    }

    /**
     * The host's interfaces that OVS makes: those plugged into OVN logical switches, and on a node
     * of OVN Submariner's {@code ovn-k8s-sub0}, an internal port of {@code br-submariner}. The plan
     * plugs a node's {@code ovn-k8s-sub0} into {@code submariner_gateway} only on the chassis of
     * {@code submariner_router}; elsewhere into nothing, where the lab would otherwise stand in for it
     * with a port-less Linux bridge, and OVS could then not make its own.
     */
    public static List<String> ovnInterfaceNames(HostNamespace host) {
        boolean onOvn = host.plan().interfaces().stream().anyMatch(i -> OvnTopology.isSegment(i.segment()));
        return host.plan().interfaces().stream()
                .filter(i -> OvnTopology.isSegment(i.segment()) || onOvn && i.name().equals(Names.OVN_K8S_SUB0)).map(Interface::name).toList();
    }

    private static boolean throughAny(Route route, List<String> devices) {
        return route.nexthops().stream().anyMatch(n -> devices.contains(n.device()));
    }

    private static void addressAndLink(List<HostStep> steps, Interface iface) {
        for (Ipv4Address address : iface.addresses()) {
            steps.add(new HostStep.AddressAdd(address, iface.name()));
        }
        steps.add(new HostStep.LinkUp(iface.name(), iface.mtu()));
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
        if (tables.stream().allMatch(t -> t.chains().stream().allMatch(c -> c.inOrder().isEmpty()))) {
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
                chain.inOrder().forEach(rule -> text.append(IptablesSyntax.appendLine(chain.name(), rule)).append('\n'));
            }
            text.append("COMMIT\n");
        }
        return Optional.of(text.toString());
    }

    /**
     * The routing part of a plan layer as batch lines: nexthop objects, groups, routes, rules, in the
     * agent's own words ({@code IpBatchRenderer}) for each entry. The verbs are the lab's: it builds a
     * fresh namespace, so it adds; and it appends routes, so that where the plan lists two routes to one
     * destination both are there and the kernel, like the plan, uses the first.
     */
    public static List<String> routing(DataplanePlan layer) {
        return routingSteps(layer, route -> true).stream().map(HostStep::ipBatchLine).toList();
    }

    private static List<HostStep> routingSteps(DataplanePlan layer, Predicate<Route> routes) {
        List<HostStep> steps = new ArrayList<>();
        layer.nexthops().forEach(object -> steps.add(new HostStep.NexthopAdd(object)));
        layer.nexthopGroups().forEach(group -> steps.add(new HostStep.GroupAdd(group)));
        layer.routes().stream().filter(routes).forEach(route -> steps.add(new HostStep.RouteAppend(route)));
        layer.rules().forEach(rule -> steps.add(new HostStep.RuleAdd(rule)));
        return steps;
    }
}
