package io.periscope.lab.apply;

import io.periscope.lab.supervisor.SupervisorStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab apply} is done once every running node's agent and every OVN-Kubernetes cluster's
 * network plugin syncer programmed the applied revision: a syncer still on the old one keeps it
 * waiting (Submariner's northbound rows are not yet the file's), a node stopped by {@code lab fail} does not.
 */
class ApplyWaitsForEveryRunningAgentAndEveryNetworkPluginSyncer {

    private static SupervisorStatus status(String syncerConverged) {
        Map<String, SupervisorStatus.NodeAgentStatus> nodes = Map.of(
                "east/east-gw", new SupervisorStatus.NodeAgentStatus(true, List.of(), 3, "", true, "new", Map.of()),
                "east/east-gw2", new SupervisorStatus.NodeAgentStatus(false, List.of(), 1, "", false, "old", Map.of()));
        return new SupervisorStatus(1, "2026-11-29T00:00:00Z", nodes, Map.of(), "new", SupervisorStatus.LinkStatus.NONE, Map.of(),
                Map.of("east", new SupervisorStatus.NorthboundStatus(2, "east-gw", syncerConverged, "")));
    }

    @Test
    void aSyncerOnTheOldRevisionIsPendingAndAFailedNodeIsNot() {
        assertThat(LabApply.pending(status("old"), Set.of("east/east-gw2"), "new")).containsExactly("east's network plugin syncer");
        assertThat(LabApply.pending(status("new"), Set.of("east/east-gw2"), "new")).isEmpty();
    }
}
