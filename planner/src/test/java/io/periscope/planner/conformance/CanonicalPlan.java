package io.periscope.planner.conformance;

import io.periscope.plan.DataplanePlan;
import io.periscope.plan.Names;
import io.periscope.plan.cable.IpsecConnection;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.OvsBridge;
import io.periscope.plan.ovn.RouterPolicy;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.plan.ovn.StaticRoute;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node's kernel state as one line per object, in the form the conformance fixtures are written
 * in (docs/plan.md, "Conformance with upstream"): close to what {@code iptables-save}, {@code ipset
 * save}, {@code ip route show table all}, {@code ip rule}, {@code ip -d link}, {@code bridge fdb}
 * and {@code sysctl} print, with one fixed order of fields so that two sources of the same state
 * give the same text.
 *
 * <p>Order matters only where the kernel evaluates in order: the rules of one chain. {@link
 * #normalised} sorts everything else, and keeps each chain's rules in their order.
 */
public final class CanonicalPlan {

    /** {@code iptables -t nat -A CHAIN ...} or {@code -I CHAIN ...}: the chain is the line's order group. */
    private static final Pattern CHAIN_RULE = Pattern.compile("^iptables -t (\\S+) -[AI] (\\S+) .*");

    private CanonicalPlan() {
    }

    /**
     * The lines of Periscope's plan for one node (its submariner layer: what the agents program and
     * {@code periscope plan} prints). A rule in a built-in chain is written {@code -I}: the agents
     * insert their jumps at the top of built-in chains.
     */
    public static List<String> of(DataplanePlan plan) {
        List<String> lines = new ArrayList<>();
        for (IpSet set : plan.ipsets()) {
            lines.add("ipset create " + set.name() + " " + set.type().ipsetName());
            set.members().stream().map(Object::toString).distinct().forEach(m -> lines.add("ipset add " + set.name() + " " + m));
        }
        for (NetfilterTable table : plan.netfilter()) {
            String t = table.table().iptablesName();
            for (Chain chain : table.chains()) {
                boolean builtin = table.table().isBuiltin(chain.name());
                if (!builtin) {
                    lines.add("iptables -t " + t + " -N " + chain.name());
                }
                for (Rule rule : chain.rules()) {
                    lines.add("iptables -t " + t + (builtin ? " -I " : " -A ") + chain.name() + " " + IptablesSyntax.rule(rule));
                }
                // Hooked last (upstream's ChainPriorityLast): appended below the node's own rules.
                for (Rule rule : chain.last()) {
                    lines.add("iptables -t " + t + " -A " + chain.name() + " " + IptablesSyntax.rule(rule));
                }
            }
        }
        for (VxlanDevice d : plan.vxlanDevices()) {
            lines.add("link " + d.name() + " type vxlan id " + d.vni() + " dstport " + d.port() + d.local().map(l -> " local " + l).orElse("")
                    + d.underlay().map(u -> " dev " + u).orElse("") + " mtu " + d.mtu() + (d.learning() ? " learning" : " nolearning"));
            lines.add("addr " + d.address() + "/" + d.network().length() + " dev " + d.name());
        }
        for (WireGuardDevice d : plan.wireGuardDevices()) {
            lines.add("link " + d.name() + " type wireguard mtu " + d.mtu());
            lines.add("wg " + d.name() + " listen-port " + d.listenPort() + " private-key <" + d.privateKey() + ">");
            for (WireGuardPeer p : d.peers()) {
                lines.add("wg " + d.name() + " peer <" + p.publicKey() + "> preshared-key <" + p.presharedKey() + "> endpoint " + p.endpoint()
                        + " allowed-ips " + String.join(",", p.allowedIps().stream().map(Object::toString).toList())
                        + " persistent-keepalive " + p.persistentKeepaliveSeconds());
            }
        }
        // Libreswan: what the connection asks pluto for, in ipsec.conf's words; the key by its id.
        for (IpsecConnection c : plan.ipsecConnections()) {
            lines.add("ipsec conn " + c.name() + " left=" + c.left() + " leftid=" + c.leftId() + " leftsubnet=" + c.leftSubnet()
                    + " leftikeport=" + c.leftIkePort() + " right=" + c.right() + " rightid=" + c.rightId() + " rightsubnet=" + c.rightSubnet()
                    + " rightikeport=" + c.rightIkePort() + " psk=<" + c.psk() + ">" + (c.forceEncapsulation() ? " encapsulation=yes" : "")
                    + " dpdaction=" + IpsecConnection.DPD_ACTION + " dpddelay=" + IpsecConnection.DPD_DELAY_SECONDS
                    + c.ike().map(i -> " ike=" + i).orElse("") + c.esp().map(e -> " esp=" + e).orElse(""));
        }
        for (FdbEntry e : plan.fdb()) {
            lines.add("fdb " + e.mac() + " dev " + e.device() + " dst " + e.destination());
        }
        for (Neighbour n : plan.neighbours()) {
            lines.add("neigh " + n.address() + " lladdr " + n.mac() + " dev " + n.device() + " nud permanent");
        }
        for (NexthopObject n : plan.nexthops()) {
            lines.add("nexthop id " + n.id() + " via " + n.via() + " dev " + n.device() + (n.onlink() ? " onlink" : ""));
        }
        for (NexthopGroup g : plan.nexthopGroups()) {
            lines.add("nexthop id " + g.id() + " group " + String.join("/", g.members().stream()
                    .map(m -> m.nexthopId() + (m.weight() == 1 ? "" : "," + m.weight())).toList())
                    + (g.resilient() ? " type resilient buckets " + g.buckets() + " idle_timer " + g.idleTimerSeconds() : ""));
        }
        for (Route r : plan.routes()) {
            lines.add(route(r));
        }
        for (PolicyRule r : plan.rules()) {
            lines.add(rule(r));
        }
        for (Map.Entry<String, String> s : plan.sysctls().entrySet()) {
            lines.add("sysctl " + s.getKey() + "=" + s.getValue());
        }
        return lines;
    }

    /**
     * A node's OVS bridges toward OVN ({@code br-submariner} under seed 003): the bridge with its
     * internal port and bridge mapping, and the port's address.
     */
    public static List<String> bridges(OvnTopology topology, String node) {
        List<String> lines = new ArrayList<>();
        for (OvsBridge b : topology.bridges()) {
            if (b.node().equals(node)) {
                lines.add("ovs bridge " + b.bridge() + " port " + b.internalPort() + " type internal ovn-bridge-mappings " + b.logicalSwitch()
                        + ":" + b.bridge());
                lines.add("addr " + b.address() + "/" + b.prefixLength() + " dev " + b.internalPort());
            }
        }
        return lines;
    }

    /**
     * Submariner's rows in a cluster's OVN northbound database, one line per row. OVN-Kubernetes'
     * own rows (the node switches and their ports, {@code join}, the {@code rtos-}/{@code rtoj-}
     * router ports, its source routes, {@code clusterLBGroup}) are the environment and are left out.
     * Upstream tells its rows by {@code external_ids:submariner}, which the plan does not model, so
     * they are told here by what upstream's own reconcilers select them by: every router and switch
     * named {@code submariner_*} with all it holds; on OVN-Kubernetes' routers, ports on a
     * {@code submariner_*} switch, policies of Submariner's priority 20000
     * ({@code ovnRoutePoliciesPrio}), and static routes whose next hop is one of those policies'
     * (upstream's {@code reconcileOvnLogicalRouterStaticRoutes} selects its routes by next hop).
     */
    public static List<String> northbound(OvnTopology topology) {
        List<String> lines = new ArrayList<>();
        Set<String> submarinerSwitches = new TreeSet<>();
        for (LogicalSwitch sw : topology.switches()) {
            if (!isSubmariners(sw.name())) {
                continue;
            }
            submarinerSwitches.add(sw.name());
            lines.add("ovn ls " + sw.name() + " load-balancer-groups [" + String.join(",", sw.loadBalancerGroups()) + "]");
            for (LogicalSwitch.SwitchPort port : sw.ports()) {
                String options = switch (port.kind()) {
                    case ROUTER -> " router-port=" + port.attaches().substring(port.attaches().indexOf('/') + 1);
                    case LOCALNET -> " network_name=" + sw.name();
                    case MANAGEMENT, POD -> "";
                };
                lines.add("ovn lsp " + sw.name() + " " + port.name() + " type " + port.kind().ovnName() + options
                        + " addresses [" + String.join(",", port.ovnAddresses()) + "]");
            }
        }
        for (LogicalRouter router : topology.routers()) {
            boolean own = isSubmariners(router.name());
            if (own) {
                lines.add("ovn lr " + router.name() + router.chassis().map(c -> " chassis " + c).orElse("")
                        + " load-balancer-groups [" + String.join(",", router.loadBalancerGroups()) + "]");
            }
            for (RouterPort port : router.ports()) {
                if (own || submarinerSwitches.contains(port.logicalSwitch())) {
                    lines.add("ovn lrp " + router.name() + " " + port.name() + " " + port.mac() + " " + port.networkText()
                            + " switch " + port.logicalSwitch());
                }
            }
            Set<String> rerouteHops = new TreeSet<>();
            for (RouterPolicy policy : router.policies()) {
                if (own || policy.priority() == Names.OVN_REROUTE_PRIORITY) {
                    lines.add("ovn lr-policy " + router.name() + " " + policy.text());
                    policy.nexthop().ifPresent(n -> rerouteHops.add(n.toString()));
                }
            }
            for (StaticRoute route : router.staticRoutes()) {
                if (own || rerouteHops.contains(route.nexthop().toString())) {
                    lines.add("ovn lr-route " + router.name() + " " + route.text());
                }
            }
        }
        return lines;
    }

    private static boolean isSubmariners(String name) {
        return name.startsWith("submariner_");
    }

    /**
     * {@code route <type> <destination> table <t> proto <p> [scope link] [src] [metric] <nexthops>}:
     * a route without a gateway has scope link (as iproute2 gives it), one with gateways universe,
     * which is not written.
     */
    static String route(Route r) {
        StringBuilder text = new StringBuilder("route ");
        if (r.type() != RouteType.UNICAST) {
            text.append(r.type().name().toLowerCase(java.util.Locale.ROOT)).append(' ');
        }
        text.append(r.destination()).append(" table ").append(r.table() == Route.MAIN_TABLE ? "main" : String.valueOf(r.table()))
                .append(" proto ").append(r.protocol().iprouteName());
        if (r.type() == RouteType.UNICAST && r.nexthopId().isEmpty() && r.nexthops().stream().allMatch(n -> n.via().isEmpty())) {
            text.append(" scope link");
        }
        r.source().ifPresent(s -> text.append(" src ").append(s));
        if (r.metric() != 0) {
            text.append(" metric ").append(r.metric());
        }
        r.nexthopId().ifPresent(id -> text.append(" nhid ").append(id));
        if (r.nexthops().size() == 1) {
            text.append(' ').append(r.nexthops().getFirst());
        } else {
            for (Nexthop n : r.nexthops()) {
                text.append(" nexthop ").append(n).append(" weight ").append(n.weight());
            }
        }
        return text.toString();
    }

    /** {@code rule pref <p> [iif] [from] [to] [fwmark] lookup <t>}, the fields in {@code ip rule}'s order. */
    static String rule(PolicyRule r) {
        StringBuilder text = new StringBuilder("rule pref ").append(r.priority());
        r.inInterface().ifPresent(i -> text.append(" iif ").append(i));
        r.from().ifPresent(f -> text.append(" from ").append(f));
        r.to().ifPresent(t -> text.append(" to ").append(t));
        r.fwmark().ifPresent(m -> text.append(" fwmark ").append(IptablesSyntax.hex(m)));
        return text.append(" lookup ").append(r.table() == Route.MAIN_TABLE ? "main" : String.valueOf(r.table())).toString();
    }

    /**
     * The lines in a form two sources can be compared in: the rules of each chain together and in
     * their order, every other line sorted; duplicates kept, so a line written twice shows.
     */
    public static List<String> normalised(List<String> lines) {
        List<String> sorted = new ArrayList<>(lines);
        // A stable sort by group: a chain's rules share one key and keep their order.
        sorted.sort(Comparator.comparing(CanonicalPlan::orderGroup));
        return sorted;
    }

    private static String orderGroup(String line) {
        Matcher rule = CHAIN_RULE.matcher(line);
        return rule.matches() ? "iptables -t " + rule.group(1) + " " + rule.group(2) + " ~" : line;
    }
}
