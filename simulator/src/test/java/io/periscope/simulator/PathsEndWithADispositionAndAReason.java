package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.lastStep;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoNodeCluster.CLIENT;
import static io.periscope.simulator.TwoNodeCluster.N1;
import static org.assertj.core.api.Assertions.assertThat;

class PathsEndWithADispositionAndAReason {

    private final TwoNodeCluster cluster = new TwoNodeCluster();

    private PathTrace trace(String destination) {
        List<PathTrace> paths = cluster.simulator().trace(tcp(CLIENT, "10.0.1.4", destination, 80));
        assertThat(paths).hasSize(1);
        return paths.getFirst();
    }

    @Test
    void aDestinationNoTableRoutesIsNoRoute() {
        PathTrace path = trace("10.99.0.1");
        assertThat(path.disposition()).isEqualTo(Disposition.NO_ROUTE);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("no route to 10.99.0.1 on c1/n1"));
        assertThat(path.forward().getLast().node()).isEqualTo(N1);
        assertThat(lastStep(path.forward())).isInstanceOf(Step.Drop.class);
        assertThat(path.reply()).isEmpty();
    }

    @Test
    void aGatewayNobodyAnswersArpForIsUnreachable() {
        cluster.n1.route("10.0.3.0/24 via 172.18.0.99 dev eth0");
        PathTrace path = trace("10.0.3.1");
        assertThat(path.disposition()).isEqualTo(Disposition.UNREACHABLE);
        assertThat(path.reason()).contains("no host answers ARP for 172.18.0.99 on segment c1/underlay (c1/n1 eth0)");
    }

    @Test
    void aDropRuleDropsWithTheRuleAsReason() {
        cluster.n1.append(Table.FILTER, "FORWARD", Rule.of(new Target.Drop(), new Match.Destination(net("10.0.2.5/32"))));
        PathTrace path = trace("10.0.2.5");
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).contains("dropped by filter/FORWARD: -d 10.0.2.5/32 -j DROP on c1/n1");
        assertThat(lastStep(path.forward())).isInstanceOfSatisfying(Step.Filter.class, f -> assertThat(f.accepted()).isFalse());
    }

    @Test
    void aDroppedReplyMakesThePathDropped() {
        cluster.n1.append(Table.FILTER, "FORWARD", Rule.of(new Target.Drop(), new Match.Source(net("10.0.2.5/32"))));
        PathTrace path = trace("10.0.2.5");
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("reply: dropped by filter/FORWARD"));
        assertThat(path.reply()).isNotEmpty();
    }

    @Test
    void aRoutingLoopEndsWhenTheTtlRunsOut() {
        cluster.n1.route("10.0.7.0/24 via 172.18.0.2 dev eth0");
        cluster.n2.route("10.0.7.0/24 via 172.18.0.1 dev eth0");
        PathTrace path = trace("10.0.7.1");
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r)
                .contains("TTL exceeded").contains("(ttl 1)").contains("routing loop through c1/n1, c1/n2"));
        // The pod sends with TTL 64; 63 forwards later the 64th router finds TTL 1.
        assertThat(path.forward()).hasSize(1 + 64);
    }

    @Test
    void aBlackholeRouteDropsThePacket() {
        cluster.n1.route("blackhole 10.0.8.0/24");
        PathTrace path = trace("10.0.8.1");
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).contains("dropped by route 'blackhole 10.0.8.0/24 proto static' in table main on c1/n1");
        assertThat(TraceQueries.steps(path.forward(), Step.Route.class).getLast().nexthop()).isEqualTo("blackhole");
    }

    @Test
    void aPodDoesNotForwardPacketsForOtherAddresses() {
        cluster.n1.route("10.0.9.0/24 via 10.0.1.4 dev v-client");
        PathTrace path = trace("10.0.9.1");
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).contains("c1/default/client is a pod and does not forward"));
    }

    @Test
    void icmpIsDeliveredWithoutAReply() {
        List<PathTrace> paths = cluster.simulator().trace(new ResolvedFlow(CLIENT, Optional.of(ip("10.0.1.4")), ip("10.0.2.5"), 0,
                Protocol.ICMP));
        assertThat(paths).singleElement().satisfies(p -> {
            assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED);
            assertThat(p.reply()).isEmpty();
            assertThat(p.forward().getLast().node()).isEqualTo(TwoNodeCluster.SERVER);
        });
    }

    @Test
    void aReplyThatReturnsWronglyTranslatedIsNotADelivery() {
        // Replies take router r2, which has no state for the connection and masquerades it. UDP: a
        // TCP SYN-ACK would be INVALID there, and conntrack leaves INVALID packets to no NAT.
        PlanFixture.HostBuilder r2 = cluster.fixture.node("c1", "r2", "172.18.0.12", "10.0.12.1");
        cluster.n2.route("10.0.1.4/32 via 172.18.0.12 dev eth0");
        r2.route("10.0.1.0/24 via 172.18.0.1 dev eth0").route("172.18.0.1 dev eth0")
                .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Masquerade(), new Match.OutInterface("eth0")));
        List<PathTrace> paths = cluster.simulator().trace(new ResolvedFlow(CLIENT, Optional.of(ip("10.0.1.4")), ip("10.0.2.5"), 80,
                Protocol.UDP));
        assertThat(paths).hasSize(1);
        PathTrace path = paths.getFirst();
        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("reply: reached c1/default/client as udp 172.18.0.12:80")
                .contains("expects udp 10.0.2.5:80 -> 10.0.1.4:40000"));
    }
}
