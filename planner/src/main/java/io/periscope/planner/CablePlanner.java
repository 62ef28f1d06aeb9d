package io.periscope.planner;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.policy.CablePorts;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.plan.Names;
import io.periscope.plan.netfilter.CtState;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.PolicyRule;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The cables of an active gateway: one tunnel per connected remote cluster, with the pair's cable
 * driver, several drivers side by side (seed 001). Every driver routes the remote subnets in table
 * 100, which {@code ip rule pref 100} consults before main; each driver has its own UDP port
 * ({@link CablePorts}). As upstream, no rule opens those ports or keeps them out of conntrack: the
 * node's own INPUT policy decides.
 */
final class CablePlanner {

    private CablePlanner() {
    }

    /** An active gateway's cables; each driver planner gets the remote clusters its driver connects to. */
    static void plan(HostContext context) {
        List<RemoteCluster> remotes = context.remotes();
        if (remotes.isEmpty()) {
            return;
        }
        Cluster cluster = context.cluster();
        Node node = context.node();
        PlanBuilder plan = context.plan();
        plan.policyRule(PolicyRule.lookup(Names.CABLE_RULE_PRIORITY, Names.CABLE_TABLE));
        VxlanCablePlanner.plan(context, using(remotes, CableDriver.VXLAN));
        LibreswanCablePlanner.plan(context, using(remotes, CableDriver.LIBRESWAN));
        WireGuardCablePlanner.plan(context, using(remotes, CableDriver.WIREGUARD));
        if (cluster.multiActiveGateways()) {
            List<String> devices = new ArrayList<>();
            if (!using(remotes, CableDriver.VXLAN).isEmpty()) {
                devices.add(Names.VXLAN_TUNNEL);
            }
            if (!using(remotes, CableDriver.WIREGUARD).isEmpty()) {
                devices.add(Names.WIREGUARD_DEVICE);
            }
            returnThroughThisGateway(cluster, node, plan, devices);
        }
    }

    /**
     * Seed 004, with several active gateways: service traffic that came in over a cable and was DNATed
     * to a pod on another node is SNATed to this node's CNI address, so the pod's reply comes back
     * through this gateway, which holds the DNAT state. Only DNATed connections: replies of this
     * cluster's own outbound flows must keep their addresses (step 6). The seed writes it for
     * {@code vxlan-tunnel}; a WireGuard device is a cable's input device just the same. Libreswan has
     * no device of its own (decrypted packets come in by the WAN interface) and gets neither rule.
     */
    private static void returnThroughThisGateway(Cluster cluster, Node node, PlanBuilder plan, List<String> cableDevices) {
        if (cableDevices.isEmpty()) {
            return;
        }
        plan.rule(Table.MANGLE, "PREROUTING", Rule.of(Target.jump(Names.MANGLE_PREROUTING)));
        for (String device : cableDevices) {
            plan.rule(Table.MANGLE, Names.MANGLE_PREROUTING, Rule.of(new Target.SetMark(Names.FROM_REMOTE_MARK, Names.FROM_REMOTE_MARK),
                    new Match.InInterface(device)));
        }
        // Above the route agent's ACCEPT of remote-to-local traffic, which would end the chain first.
        List<Rule> postrouting = plan.chain(Table.NAT, Names.POSTROUTING);
        int firstAccept = 0;
        while (firstAccept < postrouting.size() && !(postrouting.get(firstAccept).target() instanceof Target.Accept)) {
            firstAccept++;
        }
        postrouting.add(firstAccept, Rule.of(new Target.Snat(Ipv4Range.single(node.cniIp())),
                new Match.OutInterface(node.link().device()), new Match.MarkIs(Names.FROM_REMOTE_MARK, Names.FROM_REMOTE_MARK, false),
                new Match.ConnState(Set.of(CtState.DNAT), false)));
        // Replies that come back through another gateway than the one the flow left by have no
        // conntrack state here; accept them into the local pod network anyway.
        for (String device : cableDevices) {
            for (Ipv4Prefix local : cluster.podCidrs()) {
                plan.rule(Table.FILTER, Names.FORWARD, Rule.of(Target.accept(), new Match.Destination(local), new Match.InInterface(device)));
            }
        }
    }

    private static List<RemoteCluster> using(List<RemoteCluster> remotes, CableDriver driver) {
        return remotes.stream().filter(r -> r.cable().name() == driver).toList();
    }
}
