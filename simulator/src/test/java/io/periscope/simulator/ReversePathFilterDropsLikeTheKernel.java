package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.SERVER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reverse-path filtering on n2, which receives the client's packets on eth0 but routes the client's
 * address back by eth1: the shape of the lab's {@code ReversePathFilterInTheKernel}, where the
 * kernel drops exactly these. The filter of a device is max(conf.all, conf.DEVICE).
 */
class ReversePathFilterDropsLikeTheKernel {

    private final TwoNodeCluster cluster = new TwoNodeCluster();

    ReversePathFilterDropsLikeTheKernel() {
        cluster.n2.iface("eth1", "10.9.0.2", "").route("10.0.1.4/32 dev eth1");
    }

    private PathTrace ping() {
        List<PathTrace> paths = cluster.simulator().trace(new ResolvedFlow(CLIENT, Optional.of(ip("10.0.1.4")), ip("10.0.2.5"), 0,
                Protocol.ICMP));
        assertThat(paths).hasSize(1);
        return paths.getFirst();
    }

    @Test
    void offLetsTheAsymmetricPacketThrough() {
        PathTrace path = ping();
        assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
        assertThat(path.forward().getLast().node()).isEqualTo(SERVER);
    }

    @Test
    void strictOnTheInputDeviceDropsIt() {
        cluster.n2.sysctl("net.ipv4.conf.eth0.rp_filter", "1");
        PathTrace path = ping();
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.forward().getLast().node()).isEqualTo(TwoNodeCluster.N2);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("rp_filter=1 (strict) on c1/n2 eth0")
                .contains("leaves by eth1, not eth0"));
    }

    @Test
    void strictForAllWinsOverOffOnTheDevice() {
        cluster.n2.sysctl("net.ipv4.conf.all.rp_filter", "1").sysctl("net.ipv4.conf.eth0.rp_filter", "0");
        assertThat(ping().disposition()).isEqualTo(Disposition.DROPPED);
    }

    @Test
    void strictAsTheDefaultReachesEveryDevice() {
        cluster.n2.sysctl("net.ipv4.conf.default.rp_filter", "1");
        assertThat(ping().disposition()).isEqualTo(Disposition.DROPPED);
    }

    @Test
    void looseLetsItThroughBecauseTheSourceIsRoutable() {
        cluster.n2.sysctl("net.ipv4.conf.eth0.rp_filter", "2");
        assertThat(ping().disposition()).isEqualTo(Disposition.DELIVERED);
    }

    @Test
    void looseOverStrictForAllIsLooseOnTheDevice() {
        cluster.n2.sysctl("net.ipv4.conf.all.rp_filter", "1").sysctl("net.ipv4.conf.eth0.rp_filter", "2");
        assertThat(ping().disposition()).isEqualTo(Disposition.DELIVERED);
    }

    @Test
    void looseDropsWhenTheWayBackIsNotAUnicastRoute() {
        cluster.n2.sysctl("net.ipv4.conf.eth0.rp_filter", "2").route("blackhole 10.0.1.4/32 metric 0");
        cluster.n2.routes.removeIf(r -> r.destination().toString().equals("10.0.1.4/32") && !r.nexthops().isEmpty());
        PathTrace path = ping();
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("not a unicast route"));
    }
}
