package io.periscope.dataplane.ovn;

import io.periscope.plan.ovn.OvnTopology;

import java.util.List;

/**
 * Brings a northbound database to an OVN topology of the plan, for the rows of one scope: what
 * Submariner's network plugin syncer does on an OVN-Kubernetes cluster (seed 003). Level-driven:
 * each run reads the database, computes the difference for its scope and applies it in one
 * transaction, so a second run with the same plan changes nothing, a remote cluster that went away
 * loses its policy and routes, and rows of the other scope (OVN-Kubernetes' own) are never touched.
 */
public final class NorthboundProgrammer {

    private final Northbound northbound;
    private final NorthboundScope scope;

    public NorthboundProgrammer(Northbound northbound, NorthboundScope scope) {
        this.northbound = northbound;
        this.scope = scope;
    }

    /**
     * @return the changes applied; empty when the database already held the plan
     * @throws IllegalStateException when the rows the scope hangs on are missing (for Submariner's
     *                               part: OVN-Kubernetes has not built its routers, switches or
     *                               load balancer group yet); nothing was changed then
     */
    public List<NbChange> program(OvnTopology topology) {
        NorthboundState desired = DesiredNorthbound.of(topology);
        NorthboundState actual = northbound.read();
        List<String> missing = NorthboundDiff.missingParents(desired, actual, scope);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("cannot program " + scope.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                    + "'s part of cluster " + topology.cluster() + "'s OVN northbound database: it lacks " + String.join(", ", missing)
                    + (scope == NorthboundScope.SUBMARINER ? "; OVN-Kubernetes builds those, so wait for it and try again" : ""));
        }
        List<NbChange> changes = NorthboundDiff.changes(desired, actual, scope);
        northbound.apply(changes, actual);
        return changes;
    }
}
