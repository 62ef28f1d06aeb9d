package io.periscope.features.steps;

import io.periscope.features.backend.Backend;
import io.periscope.features.backend.Deployment;
import io.periscope.features.backend.Evidence;
import io.periscope.features.backend.EvidenceLog;
import io.periscope.features.kubernetes.KubernetesControlPlane;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One scenario's state, shared by every step class (PicoContainer gives each scenario a fresh one):
 * the backend the suite chose, the cluster set the scenario described, its deployment, and the last
 * traced flow with the paths the scenario is looking at.
 */
public final class ClusterSetUnderTest {

    private Backend backend;
    private ClusterSet clusterSet;
    private String yaml;
    private TopologyException refusal;
    private Deployment deployment;
    private boolean changedWhileDeployed;
    private FlowTrace trace;
    private List<PathTrace> followed;
    private KubernetesControlPlane controlPlane;
    /** Whether {@link #controlPlane} is the deployment's own (its agents program the backend), which the deployment stops. */
    private boolean borrowedControlPlane;
    /** Each node removed from the cluster set in this scenario ({@code cluster/node}), with the addresses it had then. */
    private final java.util.Map<String, List<io.periscope.model.net.Ipv4Address>> removedNodes = new java.util.LinkedHashMap<>();

    /** Remembers a node's addresses as it leaves, for the steps that check nothing names them afterwards. */
    public void removedNode(String node, List<io.periscope.model.net.Ipv4Address> addresses) {
        removedNodes.put(node, List.copyOf(addresses));
    }

    public java.util.Optional<List<io.periscope.model.net.Ipv4Address>> removedNodeAddresses(String node) {
        return java.util.Optional.ofNullable(removedNodes.get(node));
    }

    /** Called first in every scenario by the suite's backend hook. */
    public void use(Backend chosen) {
        backend = chosen;
    }

    Backend backend() {
        if (backend == null) {
            throw new IllegalStateException("no backend: run the scenarios through SimulatorAcceptance or LabAcceptance, "
                    + "whose glue selects one");
        }
        return backend;
    }

    void describe(String yaml) {
        this.yaml = yaml;
        try {
            clusterSet = TopologyLoader.parse(yaml, "cluster-set.yaml");
            refusal = null;
        } catch (TopologyException e) {
            clusterSet = null;
            refusal = e;
        }
        deployment = null;
        changedWhileDeployed = false;
        trace = null;
        followed = null;
        stopControlPlane();
    }

    /** The cluster set file as the scenario wrote it. */
    String yaml() {
        if (yaml == null) {
            throw new IllegalStateException("no cluster set: start the scenario with 'Given the cluster set:'");
        }
        return yaml;
    }

    Optional<TopologyException> refusal() {
        return Optional.ofNullable(refusal);
    }

    ClusterSet clusterSet() {
        if (refusal != null) {
            throw new AssertionError("the cluster set was refused:\n" + refusal.report());
        }
        if (clusterSet == null) {
            throw new IllegalStateException("no cluster set: start the scenario with 'Given the cluster set:'");
        }
        return clusterSet;
    }

    /** The deployment of the current cluster set, deployed on first use. */
    Deployment deployment() {
        if (deployment == null) {
            deployment = changedWhileDeployed ? backend().change(clusterSet()) : backend().deploy(clusterSet());
            changedWhileDeployed = false;
        }
        return deployment;
    }

    /**
     * The cluster set changed (an object added or deleted, a node failed): the next step that looks
     * deploys the changed set. A change of a set this scenario deployed goes to what runs
     * ({@link Backend#change}), which the lab reconciles in place where it can; a change before the
     * first deployment (a Given that adjusts the set) simply deploys the adjusted set.
     */
    void change(ClusterSet changed) {
        changedWhileDeployed |= deployment != null;
        clusterSet = changed;
        deployment = null;
        trace = null;
        followed = null;
        stopControlPlane();
    }

    /**
     * The Kubernetes control plane of the deployed cluster set, started by the first step that needs an
     * API (so scenarios that never ask stay fast); its broker syncs settle the clusters' GlobalCIDRs with its broker.
     */
    KubernetesControlPlane controlPlane() {
        if (controlPlane == null && deployment().controlPlane().isPresent()) {
            controlPlane = deployment().controlPlane().get();
            borrowedControlPlane = true;
        }
        if (controlPlane == null) {
            controlPlane = KubernetesControlPlane.start(clusterSet());
        }
        // What a step asks the control plane is answered by API objects that Periscope's controllers wrote.
        EvidenceLog.record(Evidence.API_OBJECTS);
        return controlPlane;
    }

    /** The control plane when a step of this scenario started one. */
    Optional<KubernetesControlPlane> runningControlPlane() {
        if (controlPlane == null && deployment != null && deployment.controlPlane().isPresent()) {
            controlPlane = deployment.controlPlane().get();
            borrowedControlPlane = true;
        }
        if (controlPlane != null) {
            EvidenceLog.record(Evidence.API_OBJECTS);
        }
        return Optional.ofNullable(controlPlane);
    }

    /**
     * A step created an object in the API servers: when they are the deployment's own (its agents
     * act on them), what runs is no longer the cluster set, so the backend must not reuse it.
     */
    void apiChangedOutsideTheSet() {
        if (borrowedControlPlane) {
            backend().changedOutsideTheSet();
        }
    }

    /** Called after every scenario, and when the cluster set changes. */
    public void stopControlPlane() {
        if (controlPlane != null && !borrowedControlPlane) {
            controlPlane.close();
        }
        controlPlane = null;
        borrowedControlPlane = false;
    }

    void traced(FlowTrace flowTrace) {
        trace = flowTrace;
        followed = flowTrace.paths();
    }

    FlowTrace trace() {
        if (trace == null) {
            throw new IllegalStateException("no flow traced yet: a step like 'When east/default/web connects to ...' comes first");
        }
        return trace;
    }

    /** The paths the scenario looks at: every path of the trace, or those a step picked out. */
    List<PathTrace> followed() {
        trace();
        return followed;
    }

    void follow(List<PathTrace> paths) {
        followed = List.copyOf(paths);
    }
}
