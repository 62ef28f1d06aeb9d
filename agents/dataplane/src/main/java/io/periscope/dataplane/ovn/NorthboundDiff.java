package io.periscope.dataplane.ovn;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The changes that bring a database's rows of one scope to the desired rows of that scope: a
 * desired row missing is created, an owned row nobody wants is deleted, a row whose key is wanted
 * with other columns is updated (and a second row with the same key, which only a hand edit makes,
 * is deleted). Rows of the other scope are neither read nor written. Pure.
 */
public final class NorthboundDiff {

    private NorthboundDiff() {
    }

    public static List<NbChange> changes(NorthboundState desired, NorthboundState actual, NorthboundScope scope) {
        Map<String, NbRow> wanted = new LinkedHashMap<>();
        for (NbRow row : desired.plain()) {
            if (scope.owns(row)) {
                wanted.putIfAbsent(row.key(), row);
            }
        }
        List<NbChange> changes = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (NorthboundState.Stored stored : actual.rows()) {
            NbRow row = stored.row();
            if (!scope.owns(row)) {
                continue;
            }
            NbRow want = wanted.get(row.key());
            if (want == null || !seen.add(row.key())) {
                changes.add(new NbChange.Delete(stored));
            } else if (!want.equals(row)) {
                changes.add(new NbChange.Update(stored, want));
            }
        }
        for (NbRow row : wanted.values()) {
            if (!seen.contains(row.key())) {
                changes.add(new NbChange.Create(row));
            }
        }
        return changes;
    }

    /**
     * What the owned desired rows hang on that neither they nor the database provide: a port's
     * router or switch, a policy's or route's router, a load balancer group a switch or router
     * names, a load balancer a group names. Submariner's part cannot be built before OVN-Kubernetes
     * has built its own.
     */
    public static List<String> missingParents(NorthboundState desired, NorthboundState actual, NorthboundScope scope) {
        Set<String> present = new HashSet<>();
        actual.plain().forEach(r -> present.add(r.key()));
        desired.plain().stream().filter(scope::owns).forEach(r -> present.add(r.key()));
        Map<String, String> missing = new LinkedHashMap<>();
        for (NbRow row : desired.plain()) {
            if (!scope.owns(row)) {
                continue;
            }
            for (String parent : parents(row)) {
                if (!present.contains(parent)) {
                    missing.putIfAbsent(parent, parent + " (needed by " + row.key() + ")");
                }
            }
        }
        return List.copyOf(missing.values());
    }

    private static List<String> parents(NbRow row) {
        return switch (row) {
            case NbRow.RouterPortRow p -> List.of("logical_router " + p.router());
            case NbRow.PolicyRow p -> List.of("logical_router " + p.router());
            case NbRow.RouteRow r -> List.of("logical_router " + r.router());
            case NbRow.SwitchPortRow p -> List.of("logical_switch " + p.logicalSwitch());
            case NbRow.SwitchRow s -> s.loadBalancerGroups().stream().map(g -> "load_balancer_group " + g).toList();
            case NbRow.RouterRow r -> r.loadBalancerGroups().stream().map(g -> "load_balancer_group " + g).toList();
            case NbRow.LoadBalancerGroupRow g -> g.loadBalancers().stream().map(l -> "load_balancer " + l).toList();
            case NbRow.LoadBalancerRow lb -> List.of();
        };
    }
}
