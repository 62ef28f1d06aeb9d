package io.periscope.lab.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * N streams over the pairs: stream i on pair i mod P; each pair's streams on consecutive source
 * ports (iperf3's --cport numbers a test's streams so), the blocks one after another, and the
 * iperf3 command that opens them.
 */
class BenchStreamsTakeRoundRobinTurnsWithConsecutivePorts {

    @Test
    void fiveStreamsOverTwoPairs() {
        List<BenchPlan.Stream> streams = BenchPlan.streams(2, 5, 21000, Set.of());

        assertThat(streams).containsExactly(
                new BenchPlan.Stream(0, 0, 21000),
                new BenchPlan.Stream(1, 1, 21003),
                new BenchPlan.Stream(2, 0, 21001),
                new BenchPlan.Stream(3, 1, 21004),
                new BenchPlan.Stream(4, 0, 21002));
        assertThat(BenchPlan.of(streams, 1)).extracting(BenchPlan.Stream::sourcePort).containsExactly(21003, 21004);
        assertThat(BenchPlan.ports(BenchPlan.of(streams, 0))).isEqualTo("21000-21002");
    }

    @Test
    void oneStreamPerPairWhenThereAreMorePairsThanStreams() {
        assertThat(BenchPlan.streams(3, 2, 21000, Set.of())).containsExactly(new BenchPlan.Stream(0, 0, 21000), new BenchPlan.Stream(1, 1, 21001));
    }

    @Test
    void aBlockMovesPastAServersPort() {
        List<BenchPlan.Stream> streams = BenchPlan.streams(2, 4, 21000, Set.of(21003));

        assertThat(BenchPlan.of(streams, 0)).extracting(BenchPlan.Stream::sourcePort).containsExactly(21000, 21001);
        assertThat(BenchPlan.of(streams, 1)).extracting(BenchPlan.Stream::sourcePort).containsExactly(21004, 21005);
    }

    @Test
    void morePerPairThanIperf3RunsIsRefusedSayingHowManyFit() {
        assertThat(BenchPlan.streams(1, 128, 21000, Set.of())).hasSize(128);
        assertThatThrownBy(() -> BenchPlan.streams(2, 257, 21000, Set.of())).hasMessageContaining("129 streams on one iperf3 client")
                .hasMessageContaining("at most 256 flows");
        assertThatThrownBy(() -> BenchPlan.streams(0, 4, 21000, Set.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPairsClientOpensItsStreamsFromTheFirstPort() {
        BenchPlan.Pair pair = new BenchPlan.Pair(1, "to-nginx", io.periscope.plan.HostId.pod("cluster1", "default", "client"), "ns-client",
                java.util.Optional.of(io.periscope.model.net.Ipv4Address.parse("10.0.128.4")), io.periscope.model.net.Ipv4Address.parse("10.0.128.4"),
                io.periscope.model.net.Ipv4Address.parse("242.254.2.254"), 80, io.periscope.plan.HostId.pod("cluster2", "default", "nginx"),
                "ns-nginx", 80);
        List<BenchPlan.Stream> streams = BenchPlan.streams(2, 6, 21000, Set.of());

        assertThat(Iperf3Tests.clientArgv(pair, BenchPlan.of(streams, 1), 10)).containsExactly("iperf3", "-4", "-c", "242.254.2.254", "-p", "80",
                "-P", "3", "--cport", "21003", "-t", "10", "-J", "--connect-timeout", "3000", "-B", "10.0.128.4");
    }
}
