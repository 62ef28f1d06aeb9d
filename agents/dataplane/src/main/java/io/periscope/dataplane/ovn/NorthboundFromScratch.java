package io.periscope.dataplane.ovn;

import io.periscope.plan.ovn.OvnTopology;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code ovn-nbctl} arguments that build an OVN topology of the plan in an empty northbound
 * database in one transaction: OVN-Kubernetes' rows and Submariner's, as the agents' own diff and
 * renderer give them (what {@code periscope plan} prints, so what it prints is what runs). Pure.
 */
public final class NorthboundFromScratch {

    private NorthboundFromScratch() {
    }

    public static List<String> arguments(OvnTopology topology) {
        NorthboundState desired = DesiredNorthbound.of(topology);
        List<NbChange> changes = new ArrayList<>();
        for (NorthboundScope scope : NorthboundScope.values()) {
            changes.addAll(NorthboundDiff.changes(desired, NorthboundState.EMPTY, scope));
        }
        return NbctlTransaction.arguments(changes, NorthboundState.EMPTY);
    }
}
