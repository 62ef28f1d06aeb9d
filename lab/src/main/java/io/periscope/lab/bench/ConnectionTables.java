package io.periscope.lab.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every connection entry the gateways held at any of several readings during a run, each as last
 * read.
 *
 * <p>One reading after the run is not enough: when the connections end, the kernel kills at once an
 * entry that never saw a reply and then sees a reset ({@code nf_conntrack_proto_tcp}: "if only reply
 * is a RST ... delete the conntrack immediately"). Under L4 hashing with several active gateways that
 * is exactly the entry a gateway holds when it carried one direction of a connection only, the
 * forward bytes on one side or the answers on the other, so a table read after the run has lost
 * most of what says which gateways the connection crossed. Readings during the run keep them, with
 * their counters as last seen; an entry read again replaces its earlier reading, whose counters
 * can only be lower. The entries the kernel deleted while the gateways' event listeners ran
 * ({@link EndedConnections}) come last, with their final counters: they hold even a connection that
 * lived and ended between two readings.
 */
final class ConnectionTables {

    private record Key(String protocol, ConntrackEntry.Tuple original, ConntrackEntry.Tuple reply) {
    }

    private final Map<String, Map<Key, ConntrackEntry>> byGateway = new LinkedHashMap<>();
    private int readings;

    /** Adds one reading of every gateway's table. */
    synchronized void add(Map<String, List<ConntrackEntry>> reading) {
        keep(reading);
        readings++;
    }

    /** Adds the entries deleted during the run, as their deletion events gave them: each replaces what a reading held. */
    synchronized void addEnded(Map<String, List<ConntrackEntry>> ended) {
        keep(ended);
    }

    private void keep(Map<String, List<ConntrackEntry>> entriesByGateway) {
        entriesByGateway.forEach((gateway, entries) -> {
            Map<Key, ConntrackEntry> seen = byGateway.computeIfAbsent(gateway, g -> new LinkedHashMap<>());
            for (ConntrackEntry entry : entries) {
                seen.put(new Key(entry.protocol(), entry.original(), entry.reply()), entry);
            }
        });
    }

    /** How many readings were added. */
    synchronized int readings() {
        return readings;
    }

    /** Per gateway, every entry any reading held, in the order first seen. */
    synchronized Map<String, List<ConntrackEntry>> entries() {
        Map<String, List<ConntrackEntry>> entries = new LinkedHashMap<>();
        byGateway.forEach((gateway, seen) -> entries.put(gateway, List.copyOf(new ArrayList<>(seen.values()))));
        return entries;
    }
}
