package io.periscope.planner;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodBlocksAreTheLargestCleanPrefixAroundEachNode {

    @Test
    void magGlobalnetNodesGetDisjointBlocksHoldingTheirOwnPods() throws Exception {
        Cluster cluster1 = TopologyLoader.load(PlannedExamples.example("mag-globalnet.yaml")).requireCluster("cluster1");
        Map<String, List<Ipv4Prefix>> blocks = PodBlocks.of(cluster1);
        assertThat(blocks.get("gw-1")).containsExactly(Ipv4Prefix.parse("10.0.0.0/18"));
        assertThat(blocks.get("gw-2")).containsExactly(Ipv4Prefix.parse("10.0.64.0/18"));
        assertThat(blocks.get("worker-1")).containsExactly(Ipv4Prefix.parse("10.0.128.0/17"));
    }

    @Test
    void blocksShrinkUntilTheyHoldNoOtherNodesAddresses() throws Exception {
        // west-gw (10.244.0.1, pod http-1 at 10.244.0.21) and west-worker (10.244.1.1, pods at
        // 10.244.1.x) are one bit apart in the third octet: each gets a /24.
        Cluster west = TopologyLoader.load(PlannedExamples.example("globalnet-egress.yaml")).requireCluster("west");
        Map<String, List<Ipv4Prefix>> blocks = PodBlocks.of(west);
        assertThat(blocks.get("west-gw")).containsExactly(Ipv4Prefix.parse("10.244.0.0/24"));
        assertThat(blocks.get("west-worker")).containsExactly(Ipv4Prefix.parse("10.244.1.0/24"));
    }
}
