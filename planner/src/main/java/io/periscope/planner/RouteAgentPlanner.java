package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.MultipathHashPolicy;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostPlan.HostRole;
import io.periscope.plan.Names;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.HookPosition;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The route agent, on every node of a cluster. Each node has {@code vx-submariner}; a non-gateway
 * node routes the remote clusters' subnets over it to the active gateways (several at once with
 * multiple active gateways: seed 004's multipath route), and a gateway has FDB entries back to every
 * other node (and, with one active gateway, to its own address, as upstream's). It also owns the
 * chains every node has: SUBMARINER-POSTROUTING (the node's own traffic SNATed to its CNI address,
 * and no NAT for traffic to remote clusters without Globalnet), SUBMARINER-FORWARD, SUBMARINER-INPUT
 * (kube-proxy clusters only, as upstream's kube-proxy handler) and the MSS clamp. On an OVN-Kubernetes cluster OVN carries remote traffic to the
 * gateway instead of vx-submariner, and the route agent's OVN handler connects the host to it
 * as the cluster set's {@code behaviour} chooses ({@link OvnArchitecture}).
 */
final class RouteAgentPlanner {

    /** {@code rp_filter} 2: the source must be routable, by any interface. */
    static final String LOOSE_RP_FILTER = "2";

    /** {@code forwarding} 1 on a tunnel device, as upstream's {@code EnableForwarding} writes it. */
    static final String FORWARDING_ON = "1";

    /**
     * Headers upstream's MTU handler takes off the default interface's MTU for a forced MSS, by the
     * local Endpoint's cable driver: for {@code vxlan} its {@code VxlanOverhead}, 50 (the outer
     * Ethernet, IPv4, UDP and VXLAN headers, leaving out the inner IP and TCP headers), for every
     * other driver its {@code MaxIPSecOverhead}, 120 ("TCP_H(20) + IP_H(20) + max IPsec overhead
     * (80)"), WireGuard included.
     */
    static final int VXLAN_MSS_OVERHEAD = 50;
    static final int IPSEC_MSS_OVERHEAD = 120;

    private RouteAgentPlanner() {
    }

    /** A cluster no ClusterConnectivityPolicy connects this one to, with the subnets it offers the others. */
    record RefusedCluster(String name, List<Ipv4Prefix> subnets) {
    }

    /**
     * The node-wide multipath sysctls, only on a node whose plan spreads a destination over several
     * nexthops (seed 004's multiple active gateways, here or in a connected cluster). Upstream sets
     * neither, and both change how every connection of the host is hashed and routed, so a node
     * with one way to each remote cluster keeps its own. Called once the node's routes are planned.
     */
    static void planMultipathSysctls(HostContext context) {
        PlanBuilder plan = context.plan();
        if (!plan.spreadsOverSeveralNexthops()) {
            return;
        }
        // The cluster's multipath hash policy (L4 unless the file says otherwise: seed 004 spreads one pod
        // pair's connections over the active gateways); policy 3 reads its fields from a second key.
        MultipathHashPolicy hash = context.cluster().environment().multipathHash();
        plan.sysctl("net.ipv4.fib_multipath_hash_policy", Integer.toString(hash.kernelValue()));
        if (hash.hashFields() != 0) {
            // Decimal, as the kernel reads the value back (0x0df7 is 3575), so the agents find no difference.
            plan.sysctl("net.ipv4.fib_multipath_hash_fields", Integer.toString(hash.hashFields()));
        }
        // Old-style multipath routes keep a nexthop whose device went down unless this is set first.
        plan.sysctl("net.ipv4.conf.all.ignore_routes_with_linkdown", "1");
    }

    /** The route agent's part of a node's plan, gateway or not. */
    static void plan(HostContext context) {
        Cluster cluster = context.cluster();
        List<Ipv4Prefix> remoteSubnets = context.remoteSubnets();
        PlanBuilder plan = context.plan();

        boolean ovn = cluster.cni() == Cni.OVN_KUBERNETES;
        if (ovn) {
            OvnArchitecture.of(context.set()).routeAgent(context);
        } else {
            planVxSubmariner(context);
        }
        // Loose reverse-path filtering where traffic of other clusters comes in, as upstream sets it:
        // a strict filter would drop what arrives by another way than the route back takes. Upstream
        // loosens vx-submariner on the gateway only (createVxLANInterface, VxInterfaceGateway), which
        // receives every node's traffic for remote clusters; a non-gateway node's vx-submariner keeps
        // the node's own setting, and receives only what its routes send back through it anyway.
        if (!ovn) {
            plan.sysctl("net.ipv4.conf." + Names.CNI_BRIDGE + ".rp_filter", LOOSE_RP_FILTER);
            if (context.host().role == HostRole.GATEWAY) {
                plan.sysctl("net.ipv4.conf." + Names.VX_SUBMARINER + ".rp_filter", LOOSE_RP_FILTER);
            }
        }
        // Clusters the connectivity policies keep apart get no tunnel and no route (upstream would have
        // none either, and a default route would carry the packets off to the underlay). Periscope
        // makes the refusal explicit: an unreachable route fails the connection at once, and its
        // reason says which policy decision it comes from.
        for (RefusedCluster other : context.refused()) {
            for (Ipv4Prefix subnet : other.subnets()) {
                plan.route(Route.unreachable(Route.MAIN_TABLE, subnet,
                        "no ClusterConnectivityPolicy connects " + cluster.name() + " and " + other.name()));
            }
        }

        // Jumps from built-in chains, in the order they must run. Upstream's kube-proxy handler hooks
        // SUBMARINER-INPUT for UDP only, and last (ChainPriorityLast: appended below the node's own
        // INPUT rules, where a final REJECT of the node's firewall wins over it); its chain opens
        // vx-submariner's port and nothing else: the cable ports are left to the node's own INPUT
        // policy, and no tunnel port is kept out of conntrack. Every other jump goes first.
        // OVN-Kubernetes nodes have neither SUBMARINER-INPUT nor its jump: upstream's OVN handler makes
        // nat SUBMARINER-POSTROUTING and filter SUBMARINER-FORWARD and SUBMARINER-FWD-MSSCLAMP only
        // (initIPtablesChains), and only the kube-proxy handler makes SUBMARINER-INPUT (createPFilterChains).
        plan.rule(Table.NAT, "POSTROUTING", Rule.of(Target.jump(Names.POSTROUTING)));
        if (!ovn) {
            // -m udp as upstream's packet filter writes after every -p udp (ToRuleSpec): iptables-save
            // shows it, and a rule without it is another rule to iptables -C and to AppendUnique.
            plan.rule(Table.FILTER, "INPUT", HookPosition.LAST, Rule.of(Target.jump(Names.INPUT), new Match.ProtocolIs(Protocol.UDP),
                    new Match.ProtocolModule()));
        }
        if (ovn) {
            plan.rule(Table.FILTER, "FORWARD", Rule.of(Target.jump(Names.MSS_CLAMP)));
        }
        plan.rule(Table.FILTER, "FORWARD", Rule.of(Target.jump(Names.FORWARD)));
        if (!ovn) {
            plan.chain(Table.FILTER, Names.INPUT);
            plan.rule(Table.FILTER, Names.INPUT, Rule.of(Target.accept(), new Match.ProtocolIs(Protocol.UDP),
                    new Match.DestinationPort(Names.VX_SUBMARINER_PORT)));
        }

        // Traffic between local pods and remote clusters keeps its addresses: accept it in nat
        // POSTROUTING, both ways, before the CNI's masquerade or kube-proxy's KUBE-POSTROUTING see
        // it. With Globalnet the remote subnets are the remote global CIDRs, and Globalnet's own
        // SNAT (its jump goes first) has translated outbound pod traffic by then. Upstream's
        // kube-proxy handler writes them; its OVN handler does not (OVN does its own NAT).
        List<Rule> postrouting = plan.chain(Table.NAT, Names.POSTROUTING);
        if (!ovn) {
            postrouting.add(hostNetworkSnat(context.node()));
        }
        if (!ovn) {
            List<Rule> noNat = context.shared().list(new NoNatKey(remoteSubnets, RemoteSubnets.local(cluster)),
                    () -> noNatBetween(RemoteSubnets.local(cluster), remoteSubnets));
            addAll(postrouting, noNat);
        }

        if (ovn) {
            // The OVN handler has a clamp of its own in filter FORWARD, besides the MTU handler's.
            OvnArchitecture.of(context.set()).forwardChains(context);
        }
        // Upstream's kube-proxy handler puts this first in SUBMARINER-FORWARD: whatever the node sends
        // into vx-submariner is accepted, so a FORWARD policy of DROP (Docker, firewalld) cannot stop
        // pod traffic on its way to the gateway. OVN-Kubernetes clusters have no vx-submariner.
        plan.chain(Table.FILTER, Names.FORWARD);
        if (!ovn) {
            plan.chain(Table.FILTER, Names.FORWARD).addFirst(Rule.of(Target.accept(), new Match.OutInterface(Names.VX_SUBMARINER)));
        }
        OptionalInt forced = forcedMss(context.set(), context.node());
        Target clamp = forced.isPresent() ? new Target.SetMss(forced.getAsInt()) : new Target.ClampMssToPmtu();
        mssClamp(plan, localCidrs(cluster, context.localSubnets()), remoteSubnets, clamp);
    }

    /**
     * {@code more} at the end of {@code rules}, one by one into room made once: addAll copies the
     * shared list to an array first, on every node. A method of its own, so that its loop is not
     * compiled on the stack of the whole route agent's plan.
     */
    private static void addAll(List<Rule> rules, List<Rule> more) {
        if (rules instanceof ArrayList<Rule> list) {
            list.ensureCapacity(rules.size() + more.size());
        }
        for (int i = 0; i < more.size(); i++) {
            rules.add(more.get(i));
        }
    }

    /** What the ACCEPTs of nat SUBMARINER-POSTROUTING are made from: the same on every node of a cluster. */
    private record NoNatKey(List<Ipv4Prefix> remoteSubnets, List<Ipv4Prefix> localSubnets) {
    }

    /** Both ways between each local and each remote subnet, in upstream's order. */
    private static List<Rule> noNatBetween(List<Ipv4Prefix> localSubnets, List<Ipv4Prefix> remoteSubnets) {
        List<Rule> rules = new ArrayList<>();
        for (Ipv4Prefix remote : remoteSubnets) {
            for (Ipv4Prefix local : localSubnets) {
                rules.add(Rule.of(Target.accept(), new Match.Source(local), new Match.Destination(remote)));
                rules.add(Rule.of(Target.accept(), new Match.Source(remote), new Match.Destination(local)));
            }
        }
        return rules;
    }

    /**
     * Upstream's MTU handler, on every node whatever the CNI: TCP SYNs between the local and the
     * remote clusters' subnets get their MSS clamped in mangle POSTROUTING, which sees forwarded and
     * host-originated packets alike (filter FORWARD would miss the latter). The two rules clamp to
     * the path MTU, or, where the MSS is forced ({@link #forcedMss}), set it instead: upstream then
     * writes its {@code --set-mss} rules in place of the {@code --clamp-mss-to-pmtu} ones.
     */
    private static void mssClamp(PlanBuilder plan, List<Ipv4Prefix> localCidrs, List<Ipv4Prefix> remoteSubnets, Target clamp) {
        plan.rule(Table.MANGLE, "POSTROUTING", Rule.of(Target.jump(Names.POSTROUTING)));
        plan.ipset(new IpSet(Names.LOCAL_CIDRS_SET, IpSetType.HASH_NET, localCidrs));
        plan.ipset(new IpSet(Names.REMOTE_CIDRS_SET, IpSetType.HASH_NET, remoteSubnets));
        plan.rule(Table.MANGLE, Names.POSTROUTING, Rule.of(clamp, new Match.SetMatch(Names.LOCAL_CIDRS_SET, true, false),
                new Match.SetMatch(Names.REMOTE_CIDRS_SET, false, false), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn()));
        plan.rule(Table.MANGLE, Names.POSTROUTING, Rule.of(clamp, new Match.SetMatch(Names.REMOTE_CIDRS_SET, true, false),
                new Match.SetMatch(Names.LOCAL_CIDRS_SET, false, false), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn()));
    }

    /**
     * What the MTU handler puts in SUBMARINER-LOCALCIDRS: the local Endpoint's subnets and the
     * cluster's pod CIDRs (its {@code SUBMARINER_CLUSTERCIDR}), each once. The pod CIDRs matter with
     * Globalnet, whose Endpoint offers only the global CIDR: mangle POSTROUTING runs before the SNAT
     * to a global IP and after the DNAT to a pod, so the SYNs it sees carry pod addresses.
     */
    static List<Ipv4Prefix> localCidrs(Cluster cluster, List<Ipv4Prefix> localSubnets) {
        List<Ipv4Prefix> cidrs = new ArrayList<>(localSubnets);
        for (Ipv4Prefix pod : cluster.podCidrs()) {
            if (!cidrs.contains(pod)) {
                cidrs.add(pod);
            }
        }
        return cidrs;
    }

    /**
     * The MSS upstream's MTU handler forces on this node, if any: the node's
     * {@value Node#TCP_CLAMP_MSS_ANNOTATION} annotation when it has one; else, on every node of a
     * cluster set with Globalnet, the node's default interface MTU less the cable driver's overhead
     * (see {@link #VXLAN_MSS_OVERHEAD}). The default interface is the node's own, {@code eth0}. The
     * cable driver is the local Endpoint's {@code backend}, which Periscope's Endpoints take from
     * {@code defaults.cableDriver} (upstream has one driver per cluster; a ClusterConnectionPolicy's
     * driver for one pair of clusters does not change it).
     */
    static OptionalInt forcedMss(ClusterSet set, Node node) {
        if (node.tcpClampMss().isPresent()) {
            return node.tcpClampMss();
        }
        if (!set.globalnet().enabled()) {
            return OptionalInt.empty();
        }
        // The default interface's MTU, as the file states it or the node's agent discovered it.
        int mtu = node.link().effectiveMtu();
        int overhead = set.defaultCableDriver() == CableDriver.VXLAN ? VXLAN_MSS_OVERHEAD : IPSEC_MSS_OVERHEAD;
        return OptionalInt.of(mtu - overhead);
    }

    /** kube-proxy clusters: vx-submariner carries remote traffic from every node to the active gateways. */
    private static void planVxSubmariner(HostContext context) {
        Cluster cluster = context.cluster();
        Node node = context.node();
        List<Ipv4Prefix> remoteSubnets = context.remoteSubnets();
        Tunnels.NexthopIds ids = context.ids();
        PlanBuilder plan = context.plan();
        boolean gateway = context.host().role == HostRole.GATEWAY;
        List<Node> activeGateways = context.activeGateways(cluster);
        Ipv4Address vxAddress = Tunnels.tunnelAddress(Names.VX_SUBMARINER_FIRST_OCTET, node.ip());
        // Neither local nor dev, as upstream creates it (createLinkDevice leaves SrcAddr nil): the
        // kernel sends each outer packet from the address its route to the peer picks, the node's own.
        // A non-gateway node of a cluster with several active gateways (seed 004's multi-endpoint
        // tunnel) learns where each gateway's MAC is, as a gateway's vxlan-tunnel towards them does
        // (VxlanCablePlanner.learns): otherwise every frame to one gateway is flooded to all of them,
        // and each gateway's uplink receives the node's whole traffic, so their rates never add up.
        boolean learning = !gateway && activeGateways.size() > 1;
        plan.vxlan(VxlanDevice.unbound(Names.VX_SUBMARINER, Names.VX_SUBMARINER_VNI, Names.VX_SUBMARINER_PORT,
                Names.vxlanMtu(node.link().effectiveMtu()), vxAddress, Tunnels.tunnelNetwork(Names.VX_SUBMARINER_FIRST_OCTET))
                .withLearning(learning));
        // Upstream enables forwarding on the device itself (EnableForwarding) rather than trusting
        // that the node's ip_forward reached it when it was created.
        plan.sysctl("net.ipv4.conf." + Names.VX_SUBMARINER + ".forwarding", FORWARDING_ON);
        List<Node> peers = gateway
                ? cluster.nodes().stream().filter(n -> !activeGateways.contains(n)).toList()
                : activeGateways;
        if (gateway && !cluster.multiActiveGateways()) {
            // Upstream's gateway adds an all-zero entry for every Node's InternalIP, its own included
            // (populateRemoteVtepIps). A frame flooded to its own address the kernel hands straight back
            // to the device (no packet leaves), where it answers nothing. Seed 004 lists a gateway's
            // entries as the non-gateway nodes' only, so with multiple active gateways the gateway's
            // own address stays out.
            plan.fdb(new FdbEntry(Names.VX_SUBMARINER, MacAddress.ZERO, node.ip()));
        }
        Tunnels.peers(plan, Names.VX_SUBMARINER, peers.stream().map(Node::ip).toList());

        if (!gateway) {
            // Host-network traffic (the node itself, host-network pods) takes these routes too and
            // leaves from vx-submariner's address, which the SNAT in nat SUBMARINER-POSTROUTING turns
            // into the node's CNI address (see hostNetworkSnat).
            List<Ipv4Address> via = activeGateways.stream()
                    .map(g -> Tunnels.tunnelAddress(Names.VX_SUBMARINER_FIRST_OCTET, g.ip())).toList();
            Tunnels.spread(plan, context.shared(), ids, Route.MAIN_TABLE, remoteSubnets, via, Names.VX_SUBMARINER, cluster.loadBalancing(),
                    Optional.empty(), 0);
        } else if (!remoteSubnets.isEmpty()) {
            // Upstream's gateway (TransitionToGateway, configureRoute): table 150, looked up from
            // priority 150, sends its host-network traffic to the remote subnets from the CNI address
            // out of the local Endpoint's interface-name, which only the WireGuard driver sets (its
            // device), else out of the default interface. Upstream runs one driver, so one device
            // serves every remote cluster; with seed 001's drivers side by side each remote cluster
            // goes out of the device its own cable's driver would give. The cables' table 100 comes
            // first and holds the same subnets, so this only carries what no cable routes.
            plan.policyRule(PolicyRule.lookup(Names.HOST_NETWORK_RULE_PRIORITY, Names.HOST_NETWORK_TABLE));
            for (RemoteCluster remote : context.remotes()) {
                String device = remote.cable().name() == CableDriver.WIREGUARD ? Names.WIREGUARD_DEVICE : EnvironmentPlanner.defaultInterface(node);
                for (Ipv4Prefix subnet : remote.subnets()) {
                    plan.route(Route.unicast(Names.HOST_NETWORK_TABLE, subnet, List.of(Nexthop.direct(device)),
                            RouteProtocol.STATIC).withSource(node.cniIp()));
                }
            }
        }
    }

    /**
     * Upstream's kube-proxy handler (createPFilterChains), on every node: what leaves by
     * vx-submariner from vx-submariner's own network (the node's own traffic, whose route gives no
     * source) is SNATed to the node's CNI address, so that replies come back like pod traffic and
     * Globalnet's egress rules, which match the pod CIDRs, treat it so.
     */
    private static Rule hostNetworkSnat(Node node) {
        return Rule.of(new Target.Snat(Ipv4Range.single(node.cniIp())), new Match.Source(Tunnels.tunnelNetwork(Names.VX_SUBMARINER_FIRST_OCTET)),
                new Match.OutInterface(Names.VX_SUBMARINER));
    }
}
