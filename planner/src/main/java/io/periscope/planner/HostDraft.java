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
    final List<Interface> interfaces;
    // Made on first use: a large cluster set's nodes are alive as drafts until the whole set is
    // planned, and many of their collections stay empty. (A routed CNI's pods have no draft: they
    // are planned whole at once, see HostDrafts.)
    private PlanBuilder environment;
    private PlanBuilder submariner;
    DataplanePlan kubeProxy = DataplanePlan.EMPTY;

    HostDraft(HostId id, HostPlan.HostRole role, Optional<String> node) {
        this(id, role, node, 2);
    }

    /** A host expected to have about {@code interfaceCount} interfaces (a node, with a veth end per pod). */
    HostDraft(HostId id, HostPlan.HostRole role, Optional<String> node, int interfaceCount) {
        this.id = id;
        this.role = role;
        this.node = node;
        this.interfaces = new ArrayList<>(interfaceCount);
    }

    /** What the planners write the host's environment (what exists without Submariner) into. */
    PlanBuilder environment() {
        if (environment == null) {
            environment = new PlanBuilder();
        }
        return environment;
    }

    /** What the planners write Submariner's part of the host's plan into. */
    PlanBuilder submariner() {
        if (submariner == null) {
            submariner = new PlanBuilder();
        }
        return submariner;
    }

    /**
     * The host's plan. A pod's layers (an OVN-Kubernetes cluster's pods have drafts) are interned
     * in {@code podLayers}: the pods of a node have the same default route and sysctls, and holding
     * one plan for all of them instead of one each keeps the large live plan, which the garbage
     * collector copies, that much smaller. Equal records are interchangeable, so the plan reads the same.
     */
    HostPlan build(java.util.Map<DataplanePlan, DataplanePlan> podLayers) {
        DataplanePlan env = environment == null ? DataplanePlan.EMPTY : environment.build();
        DataplanePlan own = submariner == null ? DataplanePlan.EMPTY : submariner.build();
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
