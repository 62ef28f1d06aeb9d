package io.periscope.lab.link;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LinkPlan}: a node's uplink shapes the node's devices on a switch (what it sends) and the
 * switch's ports towards them (what it receives), its loss and delay become rules for both ways in
 * the node's link chains; a cable becomes a class under each gateway's WAN shaping and rules for
 * what leaves towards the other cluster's gateways; a delayed link gets an NFQUEUE queue per
 * namespace and direction.
 */
class UplinksAndCablesBecomeShapingOnBothEndsAndRulesOnTheNode {

    private static final ClusterSet SET = LinkedTopologies.twoClusters("links-unit", "rate: 20mbit, delay: 5ms, jitter: 1ms, loss: 10%, queue: 50",
            "rate: 50mbit", "rate: 10mbit, delay: 20ms, loss: 0.5%, queue: 30");
    private static final LinkPlan PLAN = LinkPlan.of(SET);

    private static NamespaceLinks namespace(String suffix) {
        return PLAN.namespaces().stream().filter(n -> n.namespace().endsWith(suffix)).findFirst().orElseThrow();
    }

    private static ManagedDevice device(String namespaceSuffix, String device) {
        return namespace(namespaceSuffix).devices().stream().filter(d -> d.device().equals(device)).findFirst().orElseThrow();
    }

    @Test
    void anUplinksRateShapesTheNodesDeviceAndTheSwitchsPortTowardsIt() {
        Shaping sent = device("-east-east-worker", "eth0").shaping().orElseThrow();
        Shaping received = device("-sw-east-underlay", "east-worker").shaping().orElseThrow();

        assertThat(sent).isEqualTo(new Shaping(OptionalLong.of(20_000_000), 50, List.of()));
        assertThat(received).isEqualTo(sent);
        assertThat(device("-east-east-worker", "eth0").link()).isEqualTo("east/east-worker uplink (eth0), leaving");
        assertThat(device("-sw-east-underlay", "east-worker").link()).isEqualTo("east/east-worker uplink (eth0), arriving");
    }

    @Test
    void aGatewaysUplinkShapesBothItsDevicesAndItsWanDeviceNestsTheCable() {
        assertThat(device("-east-east-gw", "eth0").shaping().orElseThrow().uplinkRateBits()).hasValue(50_000_000);
        assertThat(device("-sw-wan", "east-gw").shaping().orElseThrow()).isEqualTo(new Shaping(OptionalLong.of(50_000_000), 1000, List.of()));
        assertThat(device("-east-east-gw", "wan0").shaping().orElseThrow()).isEqualTo(new Shaping(OptionalLong.of(50_000_000), 1000,
                List.of(new CableClass("west", 0x11, 10_000_000, 30, List.of(Ipv4Address.parse("172.31.42.2"))))));
        // The other end of the cable: no uplink rate of its own, the cable's class under the line rate.
        assertThat(device("-west-west-gw", "wan0").shaping().orElseThrow()).isEqualTo(new Shaping(OptionalLong.empty(), 1000,
                List.of(new CableClass("east", 0x10, 10_000_000, 30, List.of(Ipv4Address.parse("172.31.41.2"))))));
    }

    @Test
    void unshapedDevicesAreStillTheLayersToClean() {
        assertThat(device("-west-west-worker", "eth0").shaping()).isEmpty();
        assertThat(device("-sw-west-underlay", "west-worker").shaping()).isEmpty();
        assertThat(namespace("-west-west-worker").asksAnything()).isFalse();
        assertThat(PLAN.namespaces()).hasSize(7).allSatisfy(n -> assertThat(n.devices()).isNotEmpty());
    }

    @Test
    void lossAndDelayOfAnUplinkAreRulesForBothWaysLossFirst() {
        assertThat(namespace("-east-east-worker").rules().stream().map(LinkRule::saveLine)).containsExactly(
                "-A LAB-LINK-IN -i eth0 -m statistic --mode random --probability 0.10000000009 -j DROP",
                "-A LAB-LINK-IN -i eth0 -j NFQUEUE --queue-num 2",
                "-A LAB-LINK-OUT -o eth0 -m statistic --mode random --probability 0.10000000009 -j DROP",
                "-A LAB-LINK-OUT -o eth0 -j NFQUEUE --queue-num 1");
    }

    @Test
    void aCablesLossAndDelayAreRulesForWhatLeavesTowardsTheOtherClustersGateways() {
        assertThat(namespace("-east-east-gw").rules().stream().map(LinkRule::saveLine)).containsExactly(
                "-A LAB-LINK-CABLE -d 172.31.42.2/32 -o wan0 -m statistic --mode random --probability 0.00499999989 -j DROP",
                "-A LAB-LINK-CABLE -d 172.31.42.2/32 -o wan0 -j NFQUEUE --queue-num 17");
        assertThat(namespace("-west-west-gw").rules().stream().map(LinkRule::saveLine)).containsExactly(
                "-A LAB-LINK-CABLE -d 172.31.41.2/32 -o wan0 -m statistic --mode random --probability 0.00499999989 -j DROP",
                "-A LAB-LINK-CABLE -d 172.31.41.2/32 -o wan0 -j NFQUEUE --queue-num 16");
        assertThat(namespace("-sw-wan").rules()).isEmpty();
    }

    @Test
    void everyDelayedDirectionHasAQueueOfItsNamespace() {
        String worker = namespace("-east-east-worker").namespace();
        String eastGw = namespace("-east-east-gw").namespace();
        String westGw = namespace("-west-west-gw").namespace();

        assertThat(LinkPlan.delays(SET)).containsExactlyInAnyOrder(
                new DelayedLink(worker, 1, Duration.ofMillis(5), Duration.ofMillis(1), "east/east-worker uplink, leaving"),
                new DelayedLink(worker, 2, Duration.ofMillis(5), Duration.ofMillis(1), "east/east-worker uplink, arriving"),
                new DelayedLink(eastGw, 17, Duration.ofMillis(20), Duration.ZERO, "cable east -> west at east/east-gw"),
                new DelayedLink(westGw, 16, Duration.ofMillis(20), Duration.ZERO, "cable west -> east at west/west-gw"));
    }

    @Test
    void theProgressLineCountsWhatWasAsked() {
        assertThat(PLAN.describe(LinkPlan.delays(SET), SET)).isEqualTo("7 devices shaped in 5 namespaces (2 cable classes);"
                + " loss on 1 uplink and 1 cable; delay on 1 uplink (5ms ± 1ms) and 1 cable (20ms), held by the supervisor's delay line on 4 NFQUEUE queues");
        ClusterSet plain = LinkedTopologies.twoClusters("links-unit", "", "", "");
        assertThat(LinkPlan.of(plain).asksAnything()).isFalse();
        assertThat(LinkPlan.of(plain).describe(LinkPlan.delays(plain), plain)).isEqualTo("none shaped (the file gives no link a rate, loss or delay)");
    }

    @Test
    void aQueueWithoutARateShapesNothingAndAZeroDelayQueuesNothing() {
        ClusterSet set = LinkedTopologies.twoClusters("links-unit", "queue: 10, delay: 0ms", "", "");
        LinkPlan plan = LinkPlan.of(set);

        assertThat(plan.asksAnything()).isFalse();
        assertThat(LinkPlan.delays(set)).isEmpty();
        assertThat(plan.namespace("nothing")).isEqualTo(Optional.empty());
    }
}
