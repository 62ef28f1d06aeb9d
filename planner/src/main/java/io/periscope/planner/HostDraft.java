package io.periscope.planner;

import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A host while the planners fill it in. */
final class HostDraft {

    final HostId id;
    final HostPlan.HostRole role;
    final Optional<String> node;
    final List<Interface> interfaces = new ArrayList<>();
    final PlanBuilder environment = new PlanBuilder();
    final PlanBuilder submariner = new PlanBuilder();
    io.periscope.plan.DataplanePlan kubeProxy = io.periscope.plan.DataplanePlan.EMPTY;

    HostDraft(HostId id, HostPlan.HostRole role, Optional<String> node) {
        this.id = id;
        this.role = role;
        this.node = node;
    }

    HostPlan build() {
        return new HostPlan(id, role, node, interfaces, environment.build(), kubeProxy, submariner.build());
    }
}
