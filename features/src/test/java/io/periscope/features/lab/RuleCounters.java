package io.periscope.features.lab;

import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.plan.HostId;
import io.periscope.simulator.trace.RuleRef;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The packet counters of every rule of the lab's nodes, as {@code iptables-save -c} prints them. A
 * packet carries no rule name; the kernel's counters tell which rules the probe's packets matched:
 * a rule whose count grew across a probe translated or judged at least one of its packets.
 */
record RuleCounters(Map<HostId, Map<String, Long>> packets, Set<HostId> tracking) {

    /**
     * Rules that make nftables turn connection tracking on in a namespace: a NAT target, a conntrack
     * match or mark, a CT target other than NOTRACK. Without one, packets carry no connection, the
     * nat table's hooks pass them by, and its rules count nothing.
     */
    private static final Pattern TRACKS_CONNECTIONS = Pattern.compile(
            "-j (SNAT|DNAT|MASQUERADE|REDIRECT|NETMAP|CONNMARK)\\b|-m (conntrack|state|connmark)\\b|-j CT (?!--notrack)");

    static RuleCounters read(CommandRunner runner, List<HostNamespace> nodes) {
        Map<HostId, Map<String, Long>> packets = new HashMap<>();
        Set<HostId> tracking = new HashSet<>();
        for (HostNamespace node : nodes) {
            String saved = runner.run(Command.of("iptables-save", "-c").inNamespace(node.namespace())).stdout();
            packets.put(node.host(), parse(saved));
            if (tracksConnections(saved)) {
                tracking.add(node.host());
            }
        }
        return new RuleCounters(packets, tracking);
    }

    static boolean tracksConnections(String saved) {
        return TRACKS_CONNECTIONS.matcher(saved).find();
    }

    /** Whether the node's rules turn connection tracking on, so that its nat table sees new connections. */
    boolean tracksConnections(HostId host) {
        return tracking.contains(host);
    }

    /** {@code table -A chain rule} to its packet count; identical rules add up. */
    static Map<String, Long> parse(String saved) {
        Map<String, Long> counts = new HashMap<>();
        String table = "";
        for (String line : saved.split("\n")) {
            if (line.startsWith("*")) {
                table = line.substring(1).strip();
            } else if (line.startsWith("[") && line.contains("] -A ")) {
                long count = Long.parseLong(line.substring(1, line.indexOf(':')));
                counts.merge(key(table, line.substring(line.indexOf("] ") + 2).strip()), count, Long::sum);
            }
        }
        return counts;
    }

    private static String key(String table, String appendRule) {
        return table + " " + appendRule;
    }

    /** Packets the rule counted on {@code host}, or -1 when the host has no such rule. */
    long count(HostId host, RuleRef rule) {
        return packets.getOrDefault(host, Map.of()).getOrDefault(key(rule.table(), "-A " + rule.chain() + " " + rule.rule()), -1L);
    }
}
