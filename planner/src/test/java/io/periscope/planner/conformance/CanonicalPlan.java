package io.periscope.planner.conformance;

import io.periscope.plan.DataplanePlan;
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
            }
        }
        for (VxlanDevice d : plan.vxlanDevices()) {
            lines.add("link " + d.name() + " type vxlan id " + d.vni() + " dstport " + d.port() + d.local().map(l -> " local " + l).orElse("")
                    + d.underlay().map(u -> " dev " + u).orElse("") + " mtu " + d.mtu() + " nolearning");
            lines.add("link " + d.name() + " address " + d.mac());
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
