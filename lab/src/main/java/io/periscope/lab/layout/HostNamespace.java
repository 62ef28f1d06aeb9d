package io.periscope.lab.layout;

import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;

/** A node or pod of the topology and the network namespace that plays it. */
public record HostNamespace(HostId host, String namespace, HostPlan plan) {

    public boolean isNode() {
        return !host.isPod();
    }
}
