package io.periscope.simulator.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One routing table, built for longest-prefix lookups: one sorted array of networks per prefix length
 * present, searched from the longest length down. Routes to the same prefix are kept in metric
 * order, so the first usable one wins, as in the kernel's FIB.
 */
public final class RoutingTable {

    private final int id;
    private final int[] lengths;
    private final int[][] networks;
    private final CompiledRoute[][][] routes;

    public RoutingTable(int id, List<CompiledRoute> all) {
        this.id = id;
        Map<Integer, Map<Integer, List<CompiledRoute>>> byLength = new TreeMap<>(Comparator.reverseOrder());
        for (CompiledRoute r : all) {
            byLength.computeIfAbsent(r.route().destination().length(), l -> new TreeMap<>())
                    .computeIfAbsent(r.route().destination().network().bits(), n -> new ArrayList<>()).add(r);
        }
        lengths = new int[byLength.size()];
        networks = new int[byLength.size()][];
        routes = new CompiledRoute[byLength.size()][][];
        int i = 0;
        for (var perLength : byLength.entrySet()) {
            lengths[i] = perLength.getKey();
            int n = perLength.getValue().size();
            networks[i] = new int[n];
            routes[i] = new CompiledRoute[n][];
            int j = 0;
            // TreeMap orders the signed keys, which is the order Arrays.binarySearch needs.
            for (var perNetwork : perLength.getValue().entrySet()) {
                networks[i][j] = perNetwork.getKey();
                routes[i][j] = perNetwork.getValue().stream()
                        .sorted(Comparator.comparingInt(r -> r.route().metric())).toArray(CompiledRoute[]::new);
                j++;
            }
            i++;
        }
    }

    public int id() {
        return id;
    }

    /** The best route to {@code destination}, or null. With {@code oif}, only routes out of that device count. */
    public CompiledRoute lookup(int destination, String oif) {
        for (int i = 0; i < lengths.length; i++) {
            int length = lengths[i];
            int key = length == 0 ? 0 : destination & (-1 << (32 - length));
            int at = Arrays.binarySearch(networks[i], key);
            if (at >= 0) {
                for (CompiledRoute r : routes[i][at]) {
                    if (r.usableVia(oif)) {
                        return r;
                    }
                }
            }
        }
        return null;
    }
}
