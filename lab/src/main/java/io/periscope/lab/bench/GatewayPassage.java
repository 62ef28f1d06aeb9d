package io.periscope.lab.bench;

import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which gateways carried a TCP connection's forward bytes (client to server), read from the gateways'
 * connection tables with accounting on ({@code nf_conntrack_acct=1}, which {@link LabBench} turns on
 * before the run).
 *
 * <p>With several active gateways under L4 hashing a connection's two directions hash apart, so a
 * gateway may know it only by its first packets ({@code SYN_SENT [UNREPLIED]}: the answers came
 * back elsewhere), or only by an entry its answers made (original tuple server to client, the
 * forward packets then counted in the entry's reply direction). So an entry is the connection's in
 * either direction: the forward bytes are the original direction's when the original tuple is the
 * one the client sent, the reply direction's when the entry was made by the answers. A local
 * (egress) gateway knows the connection as the client sent it; the tuple the forward packets leave
 * with (after Globalnet's SNAT to a global egress address, maybe another source port) is what the
 * remote (ingress) gateways know it by. A remote gateway that DNATs the connection to the server pod
 * and sees only its answers knows it by the client's (translated) address and port alone, which the
 * bench's chosen source ports make unique.
 *
 * <p>A socket draws a new hash after a retransmission timeout, so a connection can cross two local
 * gateways; its main gateway on each side is the one that carried most of its forward bytes, and
 * only that one counts it in the per-gateway flow counts. A gateway whose entries carried none of the
 * forward bytes (it saw only the answers) did not carry the connection. Entries read without
 * accounting count as crossed (with 0 bytes) when their original tuple is the connection's.
 *
 * <p>Entries of earlier connections with the same tuples must be gone before the measured
 * connections start ({@link LabBench} deletes them): a table keeps a closed connection's entry for
 * minutes.
 *
 * @param localBytes  forward bytes per gateway of the client's cluster, most first
 * @param remoteBytes forward bytes per gateway of the server's cluster, most first
 */
public record GatewayPassage(Map<String, Long> localBytes, Map<String, Long> remoteBytes) {

    public GatewayPassage {
        localBytes = ordered(localBytes);
        remoteBytes = ordered(remoteBytes);
    }

    /** Gateways without byte counts (each 0): the first by name is the main one. */
    public GatewayPassage(Set<String> local, Set<String> remote) {
        this(zero(local), zero(remote));
    }

    /** Every local gateway that carried forward bytes. */
    public Set<String> local() {
        return new TreeSet<>(localBytes.keySet());
    }

    /** Every remote gateway that carried forward bytes. */
    public Set<String> remote() {
        return new TreeSet<>(remoteBytes.keySet());
    }

    /** The local gateway that carried most of the forward bytes. */
    public Optional<String> mainLocal() {
        return localBytes.keySet().stream().findFirst();
    }

    /** The remote gateway that carried most of the forward bytes. */
    public Optional<String> mainRemote() {
        return remoteBytes.keySet().stream().findFirst();
    }

    /** A gateway's share of its side's forward bytes (0 to 1); 0 when the side counted no bytes. */
    public double share(String gateway) {
        Map<String, Long> side = localBytes.containsKey(gateway) ? localBytes : remoteBytes;
        long total = side.values().stream().mapToLong(Long::longValue).sum();
        return total == 0 ? 0 : (double) side.getOrDefault(gateway, 0L) / total;
    }

    /**
     * @param sent          the connection's tuple as its client sent it
     * @param localEntries  the TCP entries of every gateway of the client's cluster, by gateway
     * @param remoteEntries the TCP entries of every gateway of the server's cluster, by gateway
     */
    public static GatewayPassage of(ConntrackEntry.Tuple sent, Map<String, List<ConntrackEntry>> localEntries,
                                    Map<String, List<ConntrackEntry>> remoteEntries) {
        Set<ConntrackEntry.Tuple> leaving = new HashSet<>();
        leaving.add(sent);
        Map<String, Long> local = carried(Set.of(sent), localEntries, leaving);
        Map<String, Long> remote = carried(leaving, remoteEntries, new HashSet<>());
        return new GatewayPassage(local, remote);
    }

    /**
     * The forward bytes each gateway's entries carried for a connection that arrives with one of
     * {@code arriving}; adds to {@code leaving} the tuples its forward packets leave with.
     */
    private static Map<String, Long> carried(Set<ConntrackEntry.Tuple> arriving, Map<String, List<ConntrackEntry>> tables,
                                             Set<ConntrackEntry.Tuple> leaving) {
        Map<String, Long> carried = new TreeMap<>();
        tables.forEach((gateway, entries) -> {
            for (ConntrackEntry entry : entries) {
                if (!entry.protocol().equals("tcp")) {
                    continue;
                }
                if (matches(entry.original(), arriving)) {
                    // Made by the forward packets: they are the original direction, and leave as the reply tuple turned around.
                    leaving.add(entry.translated());
                    if (!entry.counted()) {
                        carried.merge(gateway, 0L, Long::sum);
                    } else if (entry.originalCounters().orElseThrow().bytes() > 0) {
                        carried.merge(gateway, entry.originalCounters().orElseThrow().bytes(), Long::sum);
                    }
                } else if (matches(entry.reply(), arriving)) {
                    // Made by the answers: the forward packets are its reply direction, untranslated here.
                    leaving.add(entry.original().reversed());
                    if (entry.counted() && entry.replyCounters().orElseThrow().bytes() > 0) {
                        carried.merge(gateway, entry.replyCounters().orElseThrow().bytes(), Long::sum);
                    }
                }
            }
        });
        return carried;
    }

    /** The tuple itself, or the same sender (address and port) with a destination translated on the way (a DNAT to the server pod). */
    private static boolean matches(ConntrackEntry.Tuple tuple, Set<ConntrackEntry.Tuple> arriving) {
        return arriving.contains(tuple) || arriving.stream().anyMatch(a -> a.src().equals(tuple.src()) && a.sport() == tuple.sport());
    }

    private static Map<String, Long> ordered(Map<String, Long> bytes) {
        Map<String, Long> ordered = new LinkedHashMap<>();
        bytes.entrySet().stream()
                .sorted(Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue).reversed().thenComparing(Map.Entry::getKey))
                .forEach(e -> ordered.put(e.getKey(), e.getValue()));
        return java.util.Collections.unmodifiableMap(ordered);
    }

    private static Map<String, Long> zero(Set<String> gateways) {
        Map<String, Long> bytes = new TreeMap<>();
        gateways.forEach(g -> bytes.put(g, 0L));
        return bytes;
    }
}
