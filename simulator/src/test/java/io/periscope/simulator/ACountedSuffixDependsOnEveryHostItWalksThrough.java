package io.periscope.simulator;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import io.periscope.simulator.engine.CompiledNetwork;
import io.periscope.simulator.engine.SuffixMemo;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A counted suffix is reused only where every host it went through holds the entries it held when it
 * was counted: the host it began on, and every host its walk arrived at after that, over a cable or
 * not. In examples/mag-globalnet.yaml each reply arrives at a local gateway by its cable (where its
 * suffix begins), then goes to the client's node over the node network and to the client pod over a
 * veth; the walk reads the conntrack entries of both.
 */
class ACountedSuffixDependsOnEveryHostItWalksThrough {

    @Test
    void aReplySuffixKeptAtTheGatewayAlsoDependsOnTheNodeAndThePodItGoesOnTo() throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", "mag-globalnet.yaml"));
        ClusterSetPlan plan = Planner.plan(set);
        Simulator simulator = new Simulator(plan);
        // The simulator's own network is compiled from the same plan in the same order: the same indexes.
        CompiledNetwork net = new CompiledNetwork(plan);
        int gateway1 = net.indexOf(HostId.node("cluster1", "gw-1"));
        int gateway2 = net.indexOf(HostId.node("cluster1", "gw-2"));
        int node = net.indexOf(HostId.node("cluster1", "worker-1"));
        int client = net.indexOf(HostId.pod("cluster1", "default", "client"));
        SuffixMemo memo = new SuffixMemo();

        simulator.count(simulator.resolver().resolve(set.flows().getFirst()), null, memo);

        List<int[]> kept = memo.keptHosts();
        assertThat(kept).as("suffixes kept").isNotEmpty();
        assertThat(kept).allSatisfy(hosts -> {
            assertThat(hosts[0]).as("where a reply's suffix begins").isIn(gateway1, gateway2);
            assertThat(hosts).as("hosts a reply's suffix went through").contains(node, client);
        });
    }
}
