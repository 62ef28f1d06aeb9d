package io.periscope.features.lab;

import io.periscope.model.globalnet.ClusterGlobalnetAllocations;
import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Globalnet's addresses as the lab's kernels hold them. The lab runs no Globalnet controller: the
 * planner allocates, and the agents program the allocations as netfilter rules (a pod's SNAT
 * {@code --to-source}, a service's {@code -d GLOBAL/32}, a GlobalEgressIP's SNAT range, the gateway's
 * ICMP DNAT of its health-check address, the {@code -d GLOBALCIDR} marks of the other clusters'
 * gateways). So each allocation is looked up where it shows up: every rule of the plan that carries
 * its address is turned into a template with that address left open, the same rule is found in
 * the same host's {@code iptables-save}, and the address the kernel wrote there is the answer. A
 * rule the kernel lacks gives no address, one it wrote with another address gives that one, and a
 * rule in the kernel that uses one of the cluster's global IPs but that the plan does not have fails
 * the read, naming it: the scenario then sees the kernel's addresses, not the planner's.
 *
 * <p>An allocation that got nothing is confirmed by the kernels holding no rule with a global IP
 * that the plan lacks. What no kernel holds stays the model's, and {@link Answer#fromModel} says
 * which: an allocation with addresses that no rule of the plan carries (a stand-by gateway's own
 * IP), and the GlobalCIDR of a cluster no other cluster's gateway marks traffic to. Every status
 * condition and the pool's free count are the model's too: no kernel holds them.
 */
final class KernelGlobalIps {

    private static final String ADDRESS = "\\d{1,3}(?:\\.\\d{1,3}){3}";
    /** An address, a range {@code a-b} or a prefix, standing alone (not part of a longer number). */
    private static final Pattern TOKEN = Pattern.compile("(?<![0-9.])(" + ADDRESS + ")(?:-(" + ADDRESS + "))?(?:/(\\d{1,2}))?(?![0-9.])");

    private KernelGlobalIps() {
    }

    /**
     * @param fromModel what the answer holds that no kernel showed, one line each
     */
    record Answer(GlobalnetAllocations allocations, List<String> fromModel) {
    }

    /**
     * @param planned every node's planned netfilter rules ({@link #lines})
     * @param kernel  the same nodes' rules as their kernels hold them
     */
    static Answer read(GlobalnetAllocations model, Map<HostId, List<String>> planned, Map<HostId, List<String>> kernel) {
        Map<String, ClusterGlobalnetAllocations> clusters = new LinkedHashMap<>();
        List<String> fromModel = new ArrayList<>();
        List<String> strays = new ArrayList<>();
        Set<String> matched = new java.util.HashSet<>();
        for (ClusterGlobalnetAllocations cluster : model.clusters().values()) {
            Map<HostId, List<String>> own = in(planned, cluster.cluster(), true);
            Map<HostId, List<String>> others = in(planned, cluster.cluster(), false);
            Ipv4Prefix cidr = cidr(cluster, others, kernel, fromModel);
            List<GlobalIpAllocation> allocations = new ArrayList<>();
            for (GlobalIpAllocation allocation : cluster.allocations()) {
                Optional<List<Ipv4Address>> seen = addresses(allocation, own, kernel, matched);
                if (seen.isEmpty()) {
                    fromModel.add(cluster.cluster() + ": " + allocation.requester() + " (no rule of the plan carries its addresses)");
                }
                allocations.add(withAddresses(allocation, seen.orElse(allocation.addresses())));
            }
            strays.addAll(strays(cluster, own, kernel, matched));
            clusters.put(cluster.cluster(), new ClusterGlobalnetAllocations(cluster.cluster(), cidr, allocations, cluster.freeCount()));
        }
        if (!strays.isEmpty()) {
            throw new AssertionError("the lab's kernels hold rules with global IPs that no allocation programs (iptables-save):\n  "
                    + String.join("\n  ", strays));
        }
        return new Answer(new GlobalnetAllocations(clusters), fromModel);
    }

    /** A host's netfilter rules, one line each: {@code table chain rule}, as {@code iptables-save} would print the rule. */
    static List<String> lines(DataplanePlan plan) {
        List<String> lines = new ArrayList<>();
        for (NetfilterTable table : plan.netfilter()) {
            for (Chain chain : table.chains()) {
                for (Rule rule : chain.inOrder()) {
                    lines.add(table.table().iptablesName() + " " + chain.name() + " " + IptablesSyntax.rule(rule));
                }
            }
        }
        return lines;
    }

    private static Map<HostId, List<String>> in(Map<HostId, List<String>> rules, String cluster, boolean inside) {
        Map<HostId, List<String>> selected = new LinkedHashMap<>();
        rules.forEach((host, lines) -> {
            if (host.cluster().equals(cluster) == inside) {
                selected.put(host, lines);
            }
        });
        return selected;
    }

    /** The GlobalCIDR the other clusters' gateways send to this cluster (their {@code -d CIDR} marks). */
    private static Ipv4Prefix cidr(ClusterGlobalnetAllocations cluster, Map<HostId, List<String>> others, Map<HostId, List<String>> kernel,
                                   List<String> fromModel) {
        Ipv4Prefix planned = cluster.globalCidr();
        Set<String> seen = new TreeSet<>();
        boolean carried = false;
        for (Map.Entry<HostId, List<String>> host : others.entrySet()) {
            for (String line : host.getValue()) {
                for (Token token : tokens(line)) {
                    if (token.prefix().filter(planned::equals).isPresent()) {
                        carried = true;
                        seen.addAll(found(token.template(line), kernel.getOrDefault(host.getKey(), List.of())));
                    }
                }
            }
        }
        if (!carried) {
            fromModel.add(cluster.cluster() + ": its GlobalCIDR " + planned + " (no other cluster's gateway marks traffic to it)");
            return planned;
        }
        if (seen.size() != 1) {
            throw new AssertionError("the other clusters' gateways do not agree on cluster " + cluster.cluster() + "'s GlobalCIDR: their "
                    + "kernels mark traffic to " + (seen.isEmpty() ? "no GlobalCIDR of it" : String.join(" and ", seen))
                    + " where the plan says " + planned);
        }
        return Ipv4Prefix.parse(seen.iterator().next());
    }

    /** The kernel's addresses of every planned rule that carries the allocation's; empty when no planned rule does. */
    private static Optional<List<Ipv4Address>> addresses(GlobalIpAllocation allocation, Map<HostId, List<String>> own,
                                                         Map<HostId, List<String>> kernel, Set<String> matched) {
        if (allocation.addresses().isEmpty()) {
            // Nothing to look for, and the kernels agree when no rule of theirs uses a global IP that no
            // allocation programs (the strays, which fail the read).
            return Optional.of(List.of());
        }
        Set<Ipv4Address> held = new LinkedHashSet<>(allocation.addresses());
        boolean carried = false;
        Set<Ipv4Address> seen = new TreeSet<>(java.util.Comparator.comparingLong(a -> Integer.toUnsignedLong(a.bits())));
        for (Map.Entry<HostId, List<String>> host : own.entrySet()) {
            for (String line : host.getValue()) {
                for (Token token : tokens(line)) {
                    if (token.prefix().isEmpty() && held.containsAll(token.addresses())) {
                        carried = true;
                        Pattern template = token.template(line);
                        for (String read : kernel.getOrDefault(host.getKey(), List.of())) {
                            Matcher matcher = template.matcher(read);
                            if (matcher.matches()) {
                                seen.addAll(Token.parse(matcher.group(1)).addresses());
                                matched.add(host.getKey() + "\0" + read);
                            }
                        }
                    }
                }
            }
        }
        return carried ? Optional.of(List.copyOf(seen)) : Optional.empty();
    }

    /**
     * Kernel rules on the cluster's nodes that use one of its global IPs, are not in the node's plan
     * and are no planned rule with another address ({@code matched}, which the allocations report).
     */
    private static List<String> strays(ClusterGlobalnetAllocations cluster, Map<HostId, List<String>> own, Map<HostId, List<String>> kernel,
                                       Set<String> matched) {
        List<String> strays = new ArrayList<>();
        for (HostId host : own.keySet()) {
            Set<String> planned = Set.copyOf(own.get(host));
            for (String line : kernel.getOrDefault(host, List.of())) {
                boolean global = tokens(line).stream().anyMatch(t -> t.prefix().isEmpty()
                        && t.addresses().stream().anyMatch(cluster.globalCidr()::contains));
                if (global && !planned.contains(line) && !matched.contains(host + "\0" + line)) {
                    strays.add(host + ": " + line);
                }
            }
        }
        return strays;
    }

    /** The text each kernel line that matches {@code template} has where the template is open. */
    private static List<String> found(Pattern template, List<String> kernel) {
        List<String> found = new ArrayList<>();
        for (String line : kernel) {
            Matcher matcher = template.matcher(line);
            if (matcher.matches()) {
                found.add(matcher.group(1));
            }
        }
        return found;
    }

    private static List<Token> tokens(String line) {
        List<Token> tokens = new ArrayList<>();
        Matcher matcher = TOKEN.matcher(line);
        while (matcher.find()) {
            tokens.add(new Token(matcher.start(), matcher.end(), matcher.group()));
        }
        return tokens;
    }

    /** An address, range or prefix in a rule's text, and where it stands. */
    private record Token(int start, int end, String text) {

        static Token parse(String text) {
            return new Token(0, text.length(), text);
        }

        /** A prefix shorter than /32; {@code a/32} counts as the address. */
        Optional<Ipv4Prefix> prefix() {
            int slash = text.indexOf('/');
            return slash < 0 || text.endsWith("/32") ? Optional.empty() : Optional.of(Ipv4Prefix.parse(text));
        }

        List<Ipv4Address> addresses() {
            String bare = text.endsWith("/32") ? text.substring(0, text.length() - 3) : text;
            if (bare.contains("/")) {
                return List.of();
            }
            if (!bare.contains("-")) {
                return List.of(Ipv4Address.parse(bare));
            }
            Ipv4Range range = Ipv4Range.parse(bare);
            List<Ipv4Address> all = new ArrayList<>();
            for (Ipv4Address a = range.first(); ; a = a.plus(1)) {
                all.add(a);
                if (a.equals(range.last())) {
                    return all;
                }
            }
        }

        /**
         * The line with this token left open: an address or range (a {@code /32} kept as written) or a
         * prefix, whatever the kernel wrote there.
         */
        Pattern template(String line) {
            String open = prefix().isPresent() ? "(" + ADDRESS + "/\\d{1,2})"
                    : "(" + ADDRESS + "(?:-" + ADDRESS + ")?)" + (text.endsWith("/32") ? "/32" : "");
            return Pattern.compile(Pattern.quote(line.substring(0, start)) + open + Pattern.quote(line.substring(end)));
        }
    }

    private static GlobalIpAllocation withAddresses(GlobalIpAllocation allocation, List<Ipv4Address> addresses) {
        return switch (allocation) {
            case GlobalIpAllocation.ClusterEgress e -> new GlobalIpAllocation.ClusterEgress(e.object(), addresses, e.condition());
            case GlobalIpAllocation.Egress e -> new GlobalIpAllocation.Egress(e.object(), addresses, e.condition());
            case GlobalIpAllocation.EgressSlice e -> new GlobalIpAllocation.EgressSlice(e.object(), e.gateway(), addresses, e.condition());
            case GlobalIpAllocation.Ingress i -> new GlobalIpAllocation.Ingress(i.object(), addresses, i.condition());
            case GlobalIpAllocation.Gateway g -> new GlobalIpAllocation.Gateway(g.node(), addresses, g.condition());
            case GlobalIpAllocation.LegacyService s -> new GlobalIpAllocation.LegacyService(s.service(), addresses, s.condition());
            case GlobalIpAllocation.LegacyPod p -> new GlobalIpAllocation.LegacyPod(p.pod(), addresses, p.condition());
            case GlobalIpAllocation.LegacyNode n -> new GlobalIpAllocation.LegacyNode(n.node(), addresses, n.condition());
        };
    }
}
