package io.periscope.simulator.scenarios;

import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream's {@code -o vx-submariner -j ACCEPT}, first in SUBMARINER-FORWARD: a pod's packet to another
 * cluster is accepted there on its node, on its way to the gateway, before any other FORWARD rule (a
 * DROP policy, a firewall's chain) could refuse it. {@code ForwardIntoVxSubmarinerInTheKernel} shows
 * the kernel doing it under a FORWARD policy of DROP.
 */
class WorkersAcceptWhatTheyForwardIntoVxSubmariner {

    @Test
    void thePodsPacketIsAcceptedByTheRuleOnItsNodeOnEveryPath() throws Exception {
        ClusterSet set = DocumentedSteps.load("mag-globalnet.yaml");
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(set.flow("client-to-nginx").orElseThrow());

        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
            Hop worker = path.forward().stream().filter(h -> h.node().toString().equals("cluster1/worker-1")).findFirst().orElseThrow();
            assertThat(worker.out()).contains("vx-submariner");
            assertThat(worker.steps()).filteredOn(s -> s instanceof Step.Filter).map(s -> (Step.Filter) s)
                    .anySatisfy(filter -> {
                        assertThat(filter.accepted()).isTrue();
                        assertThat(filter.rule().toString()).isEqualTo("filter/SUBMARINER-FORWARD: -o vx-submariner -j ACCEPT");
                    });
        });
    }
}
