package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.Names;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Globalnet's datapath on an active gateway (with multiple active gateways, on each of them: seed
 * 004 moves it into the gateway pod). Globalnet 2.0 (seed 002): traffic to a remote cluster's
 * global CIDR is marked 0xC0000 in SUBMARINER-GN-MARK, then SNATed by the first matching chain of
 * SM-GN-EGRESS-PODS (pod-selector GlobalEgressIPs, by ipset), SM-GN-EGRESS-HDLS-PODS (headless
 * service pods, their own ingress IP), SM-GN-EGRESS-NS (namespace GlobalEgressIPs, by ipset),
 * SM-GN-EGRESS-CLUSTER (the ClusterGlobalEgressIP, this gateway's own with multiple active
 * gateways). Seed 002 lets a namespace GlobalEgressIP win over a headless pod's own IP, which
 * upstream's jump order alone would not: with {@code behaviour: seeds} a headless pod that such an
 * object covers gets no egress rule in SM-GN-EGRESS-HDLS-PODS, so its traffic falls through to
 * SM-GN-EGRESS-NS; with {@code behaviour: upstream} it gets its rule as upstream's GlobalIngressIP
 * controller writes it, and leaves with its own global IP. Ingress:
 * headless pods' global IPs are DNATed in SUBMARINER-GN-INGRESS; an exported
 * ClusterIP service's global IP is DNATed by kube-proxy, as an external IP of the internal service
 * Globalnet creates (see {@link KubeProxyPlanner}). The legacy design (seed 000) SNATs each pod to its
 * own global IP and sends a service's global IP into the service's kube-proxy chain.
 */
final class GlobalnetPlanner {

    /** {@code tcp_mtu_probing} 2: always probe, as upstream sets it (1 would probe only after a black hole is detected). */
    static final String TCP_MTU_PROBING = "2";
    /** The MSS a probing connection starts from: RFC 4821's recommendation, upstream's value. */
    static final String TCP_BASE_MSS = "1024";

    private GlobalnetPlanner() {
    }

    /** Globalnet's part of an active gateway's plan. */
    static void plan(HostContext context) {
        Cluster cluster = context.cluster();
        Node gateway = context.node();
        GlobalAddresses global = context.global();
        // With Globalnet, the subnets the connected clusters' Endpoints offer are their global CIDRs.
        List<Ipv4Prefix> remoteGlobalCidrs = context.remoteSubnets();
        PlanBuilder plan = context.plan();
        // Upstream's gateway monitor, on becoming the gateway: packetization-layer path MTU discovery
        // (RFC 4821) with its recommended base MSS. The gateway's own host-network connections to
        // remote services are SNATed and tunnelled, and a lost ICMP frag-needed must not stall them.
        plan.sysctl("net.ipv4.tcp_mtu_probing", TCP_MTU_PROBING);
        plan.sysctl("net.ipv4.tcp_base_mss", TCP_BASE_MSS);
        plan.rule(Table.NAT, "PREROUTING", Rule.of(Target.jump(Names.GN_INGRESS)));
        plan.chain(Table.NAT, Names.GN_INGRESS);
        // The first rule of SUBMARINER-POSTROUTING, above the route agent's no-masquerade ACCEPTs:
        // pod traffic to a remote global CIDR must be SNATed to a global IP before they accept it.
        plan.chain(Table.NAT, Names.POSTROUTING).addFirst(Rule.of(Target.jump(Names.GN_EGRESS)));
        plan.rule(Table.NAT, Names.GN_EGRESS, Rule.of(Target.jump(Names.GN_MARK)));
        // Declared even when no policy connects this cluster to any other: the jump needs the chain.
        plan.chain(Table.NAT, Names.GN_MARK);
        for (Ipv4Prefix remote : remoteGlobalCidrs) {
            // Upstream's packetfilter writes --set-mark 0xC0000/0xC0000 (pkg/packetfilter/iptables,
            // since 0.18), as the seeds' README does: only Globalnet's two bits are set, the rest of
            // the mark (kube-proxy's 0x4000 among it) is left as it was.
            plan.rule(Table.NAT, Names.GN_MARK, Rule.of(new Target.SetMark(Names.GLOBALNET_MARK, Names.GLOBALNET_MARK),
                    new Match.Destination(remote)));
        }
        // Upstream's Gateway controller (the legacy controller does the same for the gateway's own
        // node): the gateway's own global IP, which remote gateways' health checks ping as the
        // Endpoint's healthCheckIP, is DNATed to the node's CNI address, where the kernel answers
        // the echo request; conntrack turns the reply's source back into the global IP. Upstream
        // appends it when that controller handles the local Gateway, racing the controllers that
        // append the headless pods' rules; Periscope puts it first. Their destinations differ, so
        // the order decides nothing.
        global.gatewayGlobalIp(cluster.name(), gateway.name()).ifPresent(ip ->
                plan.rule(Table.NAT, Names.GN_INGRESS, new Rule(List.of(new Match.Destination(Ipv4Prefix.host(ip)),
                        new Match.ProtocolIs(Protocol.ICMP)), new Target.Dnat(gateway.cniIp(), OptionalInt.empty()), Optional.empty())));
        if (context.set().globalnet().mode() == GlobalnetMode.LEGACY) {
            planLegacy(context);
        } else {
            planV2(context);
        }
    }

    private static void planV2(HostContext context) {
        Cluster cluster = context.cluster();
        ClusterIndex index = context.index();
        Node gateway = context.node();
        PlanBuilder plan = context.plan();
        GlobalAddresses global = context.global();
        // Upstream's order. SM-GN-EGRESS-HDLS-EPS holds upstream's rules for endpoints of headless
        // services that are not pods (Endpoints without a targetRef); a topology file has no such
        // endpoints (every endpoint is a pod the service selects), so it stays empty, but a node's
        // chain list matches a real one.
        for (String chain : List.of(Names.GN_EGRESS_PODS, Names.GN_EGRESS_HEADLESS_PODS, Names.GN_EGRESS_HEADLESS_ENDPOINTS,
                Names.GN_EGRESS_NAMESPACE, Names.GN_EGRESS_CLUSTER)) {
            plan.rule(Table.NAT, Names.GN_EGRESS, Rule.of(Target.jump(chain)));
            plan.chain(Table.NAT, chain);
        }
        Match marked = globalnetMarked();

        for (GlobalEgressIP egress : cluster.globalEgressIPs()) {
            // With per-gateway ownership each gateway SNATs only to its own slice, so replies come back to it.
            Optional<Ipv4Range> range = range(cluster.egressPerGateway()
                    ? global.egress(cluster.name(), egress.namespace(), egress.name(), gateway.name())
                    : global.egress(cluster.name(), egress.namespace(), egress.name()));
            if (range.isEmpty()) {
                continue;
            }
            String setName = egressIpSetName(egress);
            // hash:net, as the seeds' README and upstream's NewNamedSet create every named set; each pod as a /32.
            // Every gateway of the cluster holds the same members: one list for all of them.
            List<Ipv4Prefix> members = context.shared().list(new EgressIpSetMembers(egress), () -> {
                List<Ipv4Prefix> selected = new ArrayList<>();
                for (Pod pod : index.podsIn(egress.namespace())) {
                    if (selects(egress, pod)) {
                        selected.add(Ipv4Prefix.host(pod.ip()));
                    }
                }
                return selected;
            });
            plan.ipset(new IpSet(setName, IpSetType.HASH_NET, members));
            String chain = egress.namespaceScoped() ? Names.GN_EGRESS_NAMESPACE : Names.GN_EGRESS_PODS;
            plan.rule(Table.NAT, chain, new Rule(List.of(marked, new Match.SetMatch(setName, true, false)),
                    new Target.Snat(range.get()), Optional.empty()));
        }

        for (Service service : cluster.services()) {
            if (!index.isExported(service)) {
                continue;
            }
            if (service.headless()) {
                for (Pod pod : index.endpointsOf(service)) {
                    Optional<Ipv4Address> ingress = global.headlessPodIngress(cluster.name(), pod.namespace(), pod.name());
                    if (ingress.isEmpty()) {
                        continue;
                    }
                    plan.rule(Table.NAT, Names.GN_INGRESS, new Rule(List.of(new Match.Destination(Ipv4Prefix.host(ingress.get()))),
                            new Target.Dnat(pod.ip(), OptionalInt.empty()), Optional.empty()));
                    if (ownAddressLeaves(context, pod)) {
                        plan.rule(Table.NAT, Names.GN_EGRESS_HEADLESS_PODS, new Rule(List.of(new Match.Source(Ipv4Prefix.host(pod.ip())), marked),
                                new Target.Snat(Ipv4Range.single(ingress.get())), Optional.empty()));
                    }
                }
            }
        }

        Optional<String> owner = cluster.multiActiveGateways() ? Optional.of(gateway.name()) : Optional.empty();
        range(global.clusterEgress(cluster.name(), owner)).ifPresent(range -> {
            // Upstream's ClusterGlobalEgressIP controller SNATs from every local subnet, the service
            // CIDR too: a packet that leaves with a service address as source gets a global address
            // like pod traffic instead of reaching the other cluster with an address meaningless there.
            List<Ipv4Prefix> locals = Stream.concat(cluster.podCidrs().stream(), cluster.serviceCidrs().stream()).toList();
            for (Ipv4Prefix local : locals) {
                plan.rule(Table.NAT, Names.GN_EGRESS_CLUSTER, Rule.of(new Target.Snat(range), new Match.Source(local), marked));
            }
            // Host networking: nodes whose CNI address lies outside the pod CIDRs still use the
            // cluster's egress IPs (their routes to remote clusters use the CNI address as source).
            for (Node node : cluster.nodes()) {
                if (!containsAny(locals, node.cniIp())) {
                    plan.rule(Table.NAT, Names.GN_EGRESS_CLUSTER, Rule.of(new Target.Snat(range),
                            new Match.Source(Ipv4Prefix.host(node.cniIp())), marked));
                }
            }
        });
    }

    /** The key of a GlobalEgressIP's ipset members among a cluster's shared parts. */
    private record EgressIpSetMembers(GlobalEgressIP egress) {
    }

    /** The pods a GlobalEgressIP's ipset holds: its namespace's, those its selector matches if it has one. */
    private static boolean selects(GlobalEgressIP egress, Pod pod) {
        return pod.namespace().equals(egress.namespace()) && !pod.hostNetwork()
                && egress.podSelector().map(s -> s.matches(pod.labels())).orElse(true);
    }

    /**
     * Does a headless pod get its own SNAT in SM-GN-EGRESS-HDLS-PODS? Upstream's GlobalIngressIP
     * controller (global_ingressip_controller.go, onCreate) writes it for every headless pod it
     * allocates, whatever GlobalEgressIP covers the pod, and the jump order puts that chain before
     * SM-GN-EGRESS-NS. Seed 002 gives a namespace GlobalEgressIP precedence, so the seeds leave it
     * out for a pod one covers.
     */
    private static boolean ownAddressLeaves(HostContext context, Pod pod) {
        return switch (context.set().behaviour()) {
            case UPSTREAM -> true;
            case SEEDS -> !namespaceEgressCovers(context.cluster(), context.global(), pod);
        };
    }

    /**
     * Does a namespace GlobalEgressIP with addresses put this pod in its ipset? Only an allocated
     * object counts: one that failed programs no rule, and the pod then keeps its own IP.
     */
    private static boolean namespaceEgressCovers(Cluster cluster, GlobalAddresses global, Pod pod) {
        return cluster.globalEgressIPs().stream().anyMatch(egress -> egress.namespaceScoped() && selects(egress, pod)
                && !global.egress(cluster.name(), egress.namespace(), egress.name()).isEmpty());
    }

    private static void planLegacy(HostContext context) {
        Cluster cluster = context.cluster();
        ClusterIndex index = context.index();
        PlanBuilder plan = context.plan();
        GlobalAddresses global = context.global();
        Match marked = globalnetMarked();
        for (Pod pod : cluster.pods()) {
            if (pod.hostNetwork()) {
                continue;
            }
            global.legacyPod(cluster.name(), pod.namespace(), pod.name()).ifPresent(ip ->
                    plan.rule(Table.NAT, Names.GN_EGRESS, new Rule(List.of(new Match.Source(Ipv4Prefix.host(pod.ip())), marked),
                            new Target.Snat(Ipv4Range.single(ip)), Optional.empty())));
        }
        // Nodes (and host-network pods) leave with the node's own global IP; their traffic to other
        // clusters carries the node's CNI address as source (the routes' src).
        for (Node node : cluster.nodes()) {
            global.legacyNode(cluster.name(), node.name()).ifPresent(ip ->
                    plan.rule(Table.NAT, Names.GN_EGRESS, new Rule(List.of(new Match.Source(Ipv4Prefix.host(node.cniIp())), marked),
                            new Target.Snat(Ipv4Range.single(ip)), Optional.empty())));
        }
        for (Service service : cluster.services()) {
            if (!index.isExported(service) || service.headless()) {
                continue;
            }
            Optional<Ipv4Address> ingress = global.serviceIngress(cluster.name(), service.namespace(), service.name());
            if (ingress.isEmpty()) {
                continue;
            }
            for (ServicePort port : service.ports()) {
                String portName = KubeProxyPlanner.servicePortName(service.qualifiedName(), service, port);
                plan.rule(Table.NAT, Names.GN_INGRESS, new Rule(List.of(new Match.Destination(Ipv4Prefix.host(ingress.get())),
                        new Match.ProtocolIs(port.protocol()), new Match.DestinationPort(port.port())),
                        Target.jump(KubeProxyPlanner.chainName("KUBE-SVC-", portName, port)), Optional.empty()));
            }
        }
    }

    /**
     * Upstream's {@code -m mark --mark 0xC0000/0xC0000} (pkg/packetfilter/iptables since 0.18, and
     * the seeds' README): Globalnet's two bits set, whatever else the mark carries.
     */
    private static Match globalnetMarked() {
        return new Match.MarkIs(Names.GLOBALNET_MARK, Names.GLOBALNET_MARK, false);
    }

    /** Allocations are contiguous blocks; an empty list means nothing was allocated. */
    static Optional<Ipv4Range> range(List<Ipv4Address> addresses) {
        if (addresses.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Ipv4Range(addresses.getFirst(), addresses.getLast()));
    }

    /**
     * Upstream's name for a GlobalEgressIP's ipset (global_egressip_controller.go, getIPSetName):
     * {@code SM-GN-} and the first 25 characters of base32(sha256("namespace/name")), the same
     * prefix for namespace and pod-selector objects: 31 characters, the kernel's limit.
     */
    static String egressIpSetName(GlobalEgressIP egress) {
        return Names.GLOBALNET_PREFIX + KubeProxyPlanner.base32Sha256(egress.namespace() + "/" + egress.name()).substring(0, 25);
    }

    /** Whether a prefix of {@code prefixes} holds {@code address}: asked for every node by every gateway, without a stream each time. */
    private static boolean containsAny(List<Ipv4Prefix> prefixes, Ipv4Address address) {
        for (int i = 0; i < prefixes.size(); i++) {
            if (prefixes.get(i).contains(address)) {
                return true;
            }
        }
        return false;
    }
}
