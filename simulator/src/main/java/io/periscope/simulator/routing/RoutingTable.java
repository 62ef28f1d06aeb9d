package io.periscope.simulator.routing;

import io.periscope.plan.routing.RouteType;

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
    private final String name;
    private final int[] lengths;
    private final int[][] networks;
    private final CompiledRoute[][][] routes;
    /** The decision of each route of {@link #routes} for a lookup not bound to a device, made once. */
    private final RouteDecision[][][] decisions;
    /**
     * A small table (most are) is searched front to back instead: its routes by prefix length, longest
     * first, then metric, as masks and networks; a few compares beat several binary searches.
     */
    private final int[] smallMasks;
    private final int[] smallNetworks;
    private final CompiledRoute[] smallRoutes;
    private final RouteDecision[] smallDecisions;
    private static final int SMALL = 24;

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
        decisions = new RouteDecision[byLength.size()][][];
        this.name = IpRouteSyntax.tableName(id);
        int i = 0;
        for (var perLength : byLength.entrySet()) {
            lengths[i] = perLength.getKey();
            int n = perLength.getValue().size();
            networks[i] = new int[n];
            routes[i] = new CompiledRoute[n][];
            decisions[i] = new RouteDecision[n][];
            int j = 0;
            // TreeMap orders the signed keys, which is the order Arrays.binarySearch needs.
            for (var perNetwork : perLength.getValue().entrySet()) {
                networks[i][j] = perNetwork.getKey();
                routes[i][j] = perNetwork.getValue().stream()
                        .sorted(Comparator.comparingInt(r -> r.route().metric())).toArray(CompiledRoute[]::new);
                decisions[i][j] = Arrays.stream(routes[i][j]).map(r -> decision(name, r, null)).toArray(RouteDecision[]::new);
                j++;
            }
            i++;
        }
        if (all.size() > SMALL) {
            smallMasks = null;
            smallNetworks = null;
            smallRoutes = null;
            smallDecisions = null;
        } else {
            // Stable: routes of one prefix and metric keep the order they were added in.
            List<CompiledRoute> ordered = all.stream().sorted(Comparator.<CompiledRoute>comparingInt(r -> -r.route().destination().length())
                    .thenComparingInt(r -> r.route().metric())).toList();
            smallMasks = ordered.stream().mapToInt(r -> mask(r.route().destination().length())).toArray();
            smallNetworks = ordered.stream().mapToInt(r -> r.route().destination().network().bits()).toArray();
            smallRoutes = ordered.toArray(CompiledRoute[]::new);
            smallDecisions = ordered.stream().map(r -> decision(name, r, null)).toArray(RouteDecision[]::new);
        }
    }

    private static int mask(int length) {
        return length == 0 ? 0 : -1 << (32 - length);
    }

    public int id() {
        return id;
    }

    /** Whether a lookup bound to {@code oif} may take every nexthop of the route, as an unbound one does. */
    private static boolean allVia(CompiledRoute route, String oif) {
        return oif == null || route.type() != RouteType.UNICAST || route.nexthopsVia(oif) == route.nexthops();
    }

    private static RouteDecision decision(String name, CompiledRoute route, String oif) {
        if (route.type() != RouteType.UNICAST) {
            return new RouteDecision.Reject(name, route);
        }
        return new RouteDecision.Forward(name, route, route.nexthopsVia(oif));
    }

    /**
     * What the best route to {@code destination} decides, or null when there is none: a forward for a
     * unicast route, a reject for the others. With {@code oif}, only routes out of that device count.
     */
    public RouteDecision decide(int destination, String oif) {
        if (smallRoutes != null) {
            for (int i = 0; i < smallRoutes.length; i++) {
                if ((destination & smallMasks[i]) == smallNetworks[i] && smallRoutes[i].usableVia(oif)) {
                    return allVia(smallRoutes[i], oif) ? smallDecisions[i] : decision(name, smallRoutes[i], oif);
                }
            }
            return null;
        }
        for (int i = 0; i < lengths.length; i++) {
            int length = lengths[i];
            int key = length == 0 ? 0 : destination & (-1 << (32 - length));
            int at = Arrays.binarySearch(networks[i], key);
            if (at >= 0) {
                CompiledRoute[] candidates = routes[i][at];
                for (int k = 0; k < candidates.length; k++) {
                    if (candidates[k].usableVia(oif)) {
                        return allVia(candidates[k], oif) ? decisions[i][at][k] : decision(name, candidates[k], oif);
                    }
                }
            }
        }
        return null;
    }
}
