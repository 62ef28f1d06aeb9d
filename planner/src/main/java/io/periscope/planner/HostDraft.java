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
    // Made on first use: most hosts of a large cluster set are pods, whose environment is built once
    // per node (builtEnvironment) and whose Submariner layer stays empty, and every draft is alive
    // (and copied by the garbage collector) until the whole set is planned.
    private PlanBuilder environment;
    private PlanBuilder submariner;
    /** An environment layer made once and shared, as the pods of a node share theirs; null when built here. */
    private DataplanePlan builtEnvironment;
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
        if (builtEnvironment != null) {
            throw new IllegalStateException(id + " has a shared environment layer already");
        }
        if (environment == null) {
            environment = new PlanBuilder();
        }
        return environment;
    }

    /**
     * The host's environment layer, made elsewhere and shared with other hosts: the same record for
     * every pod of a node, rather than a builder per pod and an equal plan found again by hashing.
     */
    void environment(DataplanePlan built) {
        if (environment != null) {
            throw new IllegalStateException(id + " has environment state of its own already");
        }
        builtEnvironment = built;
    }

    /** What the planners write Submariner's part of the host's plan into. */
    PlanBuilder submariner() {
        if (submariner == null) {
            submariner = new PlanBuilder();
        }
        return submariner;
    }

    /**
     * The host's plan. A pod's layers are interned in {@code podLayers}: the pods of a node (most
     * hosts of a large cluster set) have the same default route and sysctls, and holding one plan
     * for all of them instead of one each keeps the large live plan, which the garbage collector
     * copies, that much smaller. Equal records are interchangeable, so the plan reads the same.
     */
    HostPlan build(java.util.Map<DataplanePlan, DataplanePlan> podLayers) {
        DataplanePlan env = builtEnvironment != null ? builtEnvironment : environment == null ? DataplanePlan.EMPTY : environment.build();
        DataplanePlan own = submariner == null ? DataplanePlan.EMPTY : submariner.build();
        if (role == HostPlan.HostRole.POD) {
            if (builtEnvironment == null) {
                env = interned(podLayers, env);
            }
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
