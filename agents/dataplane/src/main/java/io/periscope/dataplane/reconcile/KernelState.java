package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Table;

import java.util.Map;

/**
 * What a node holds, as read: {@code plan} is the part that is Periscope's (or everything, for
 * {@link DataplaneReader#readAll}), as records; {@code netfilter} the full {@code iptables-save}
 * tables, which say where everyone else's rules sit.
 */
public record KernelState(DataplanePlan plan, Map<Table, SavedTable> netfilter) {

    public KernelState {
        netfilter = Map.copyOf(netfilter);
    }
}
