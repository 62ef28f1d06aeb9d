package io.periscope.lab.bench;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which gateways a TCP connection crossed, read from the gateways' connection tables: its local
 * (egress) gateway holds an entry whose original tuple is the connection's own, as the client sent
 * it; that entry's reply tuple says what the gateway made of it (Globalnet's SNAT to one of the
 * gateway's global egress addresses, and a source port that may have changed), and the remote
 * (ingress) gateway holds an entry whose original tuple is exactly that translated one. Matching the
 * second step on the first's translation, not on the client's tuple, is what finds the remote gateway
 * behind a SNAT; without one the two tuples are the same.
 *
 * <p>Entries of earlier connections with the same tuples must be gone before the measured
 * connections start ({@link LabBench} deletes them): a table keeps a closed connection's entry for
 * minutes. An entry made by a connection's answers alone (a reply that came back through another
 * gateway than the one its connection left by) has the server's tuple as its original one and is
 * not taken for the connection.
 */
public record GatewayPassage(Set<String> local, Set<String> remote) {

    public GatewayPassage {
        local = new TreeSet<>(local);
        remote = new TreeSet<>(remote);
    }

    /**
     * @param sent          the connection's tuple as its client sent it
     * @param localEntries  the TCP entries of every gateway of the client's cluster, by gateway
     * @param remoteEntries the TCP entries of every gateway of the server's cluster, by gateway
     */
    public static GatewayPassage of(ConntrackEntry.Tuple sent, Map<String, List<ConntrackEntry>> localEntries,
                                    Map<String, List<ConntrackEntry>> remoteEntries) {
        Set<String> local = new TreeSet<>();
        Set<ConntrackEntry.Tuple> leaving = new java.util.HashSet<>();
        localEntries.forEach((gateway, entries) -> entries.stream()
                .filter(e -> e.protocol().equals("tcp") && e.original().equals(sent))
                .forEach(e -> {
                    local.add(gateway);
                    leaving.add(e.translated());
                }));
        Set<String> remote = new TreeSet<>();
        remoteEntries.forEach((gateway, entries) -> {
            if (entries.stream().anyMatch(e -> e.protocol().equals("tcp") && leaving.contains(e.original()))) {
                remote.add(gateway);
            }
        });
        return new GatewayPassage(local, remote);
    }
}
