package io.periscope.features.lab;

import io.periscope.dataplane.ovn.DesiredNorthbound;
import io.periscope.model.load.TopologyLoader;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OVN steps' topology read from a northbound database: the rows the agents' programmer writes
 * for seed 003's east cluster, read back, give the planned routers (ports, policies, static routes,
 * chassis, load balancer groups), switches and groups.
 */
class NorthboundTopologyReadsBackWhatTheProgrammerWrites {

    @Test
    void theRowsOfThePlannedTopologyReadBackAsThatTopology() throws Exception {
        OvnTopology planned = Planner.plan(TopologyLoader.load(Path.of("../examples/globalnet-ovn.yaml"))).ovn("east").orElseThrow();

        OvnTopology read = NorthboundTopology.of("east", DesiredNorthbound.of(planned));

        assertThat(read.switches()).extracting(LogicalSwitch::name).containsExactlyInAnyOrderElementsOf(
                planned.switches().stream().map(LogicalSwitch::name).toList());
        for (LogicalRouter router : planned.routers()) {
            LogicalRouter back = read.router(router.name()).orElseThrow();
            assertThat(back.chassis()).isEqualTo(router.chassis());
            assertThat(back.loadBalancerGroups()).containsExactlyInAnyOrderElementsOf(router.loadBalancerGroups());
            assertThat(back.policies()).containsExactlyInAnyOrderElementsOf(router.policies());
            assertThat(back.staticRoutes()).containsExactlyInAnyOrderElementsOf(router.staticRoutes());
            assertThat(back.ports()).extracting(p -> p.name() + " " + p.address() + " " + p.network() + " " + p.mac())
                    .containsExactlyInAnyOrderElementsOf(router.ports().stream().map(p -> p.name() + " " + p.address() + " " + p.network() + " " + p.mac())
                            .toList());
        }
        assertThat(read.loadBalancerGroups()).containsExactlyInAnyOrderElementsOf(planned.loadBalancerGroups());
    }
}
