package io.periscope.lab.failover;

import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.LabRefusal;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A lab whose nodes run agents other than its supervisor's (the production Kubernetes agents of the
 * acceptance suite) can only have a node blackholed: a crash and an agent stop ask the supervisor to
 * stop the node's agents, which it does not run there. The refusal comes before anything is touched.
 */
class OnlyABlackholeFailsANodeOfOtherAgents {

    @Test
    void aCrashOrAnAgentStopIsRefusedWithTheReason() {
        LabFailover failover = new LabFailover(ProcessCommandRunner.here(), null);
        for (FailureMode mode : List.of(FailureMode.CRASH, FailureMode.AGENT_STOP)) {
            assertThatThrownBy(() -> failover.runWithOtherAgents(null, new LabFailover.Options("cluster1/gw-1", mode, 4, 100, 0,
                    Optional.empty()), line -> { }))
                    .isInstanceOf(LabRefusal.class).hasMessageContaining("only a blackhole").hasMessageContaining(mode.toString());
        }
    }
}
