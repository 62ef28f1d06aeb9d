package io.periscope.planner;

import io.periscope.plan.DataplanePlan;
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
    DataplanePlan kubeProxy = DataplanePlan.EMPTY;

    HostDraft(HostId id, HostPlan.HostRole role, Optional<String> node) {
        this.id = id;
        this.role = role;
        this.node = node;
    }

    /**
     * The host's plan. A pod's layers are interned in {@code podLayers}: the pods of a node (most
     * hosts of a large cluster set) have the same default route and sysctls, and holding one plan
     * for all of them instead of one each keeps the large live plan, which the garbage collector
     * copies, that much smaller. Equal records are interchangeable, so the plan reads the same.
     */
    HostPlan build(java.util.Map<DataplanePlan, DataplanePlan> podLayers) {
        DataplanePlan env = environment.build();
        DataplanePlan own = submariner.build();
        if (role == HostPlan.HostRole.POD) {
            env = interned(podLayers, env);
            own = interned(podLayers, own);
        }
        return new HostPlan(id, role, node, interfaces, env, kubeProxy, own);
    }

    private static DataplanePlan interned(java.util.Map<DataplanePlan, DataplanePlan> layers, DataplanePlan plan) {
        // Most pods have no Submariner state: the one empty plan needs no hashing of its twelve lists.
        if (plan == DataplanePlan.EMPTY) {
            return plan;
        }
        DataplanePlan known = layers.putIfAbsent(plan, plan);
        return known == null ? plan : known;
    }
}
