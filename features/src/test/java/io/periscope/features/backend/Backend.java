package io.periscope.features.backend;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;

import java.util.Optional;

/**
 * Where the acceptance scenarios run: the simulator (always) or the lab (real namespaces and packets,
 * as root). The scenarios' text is the same for both; only this choice differs between the suites.
 */
public sealed interface Backend permits SimulatorBackend, LabBackend {

    /** {@code simulator}, {@code lab} or {@code kubernetes-on-lab}, as the reports name the backend. */
    String name();

    /**
     * Makes {@code set} real on this backend, or reuses what is already there when it is the same
     * cluster set: a scenario that changes the set (a deleted export, a failed node) deploys the changed
     * set, which a level-driven backend reconciles in place.
     */
    Deployment deploy(ClusterSet set);

    /**
     * Makes {@code changed}, a change of the set this backend last deployed, real by changing what
     * runs: the lab applies it to the running lab ({@code lab apply}), so that the agents must remove
     * what the change dropped; the simulator, which keeps no state between deployments, deploys it.
     */
    default Deployment change(ClusterSet changed) {
        return deploy(changed);
    }

    /**
     * A step changed what runs beyond the cluster set (it created an object in the deployment's own
     * API servers): the next scenario must not be handed this deployment as the set's. Nothing to do
     * where no deployment outlives its scenario.
     */
    default void changedOutsideTheSet() {
    }

    /**
     * What this backend makes of the cluster set file {@code yaml}: its refusal, or empty when it
     * takes the file. The simulator has no file to refuse, so its answer is the topology loader's
     * verdict; the lab hands the file to its own {@code lab up} ({@link LabDriver#refuse}).
     */
    default Optional<TopologyException> refusal(String yaml) {
        EvidenceLog.record(Evidence.MODEL_ONLY);
        try {
            TopologyLoader.parse(yaml, "cluster-set.yaml");
            return Optional.empty();
        } catch (TopologyException e) {
            return Optional.of(e);
        }
    }
}
