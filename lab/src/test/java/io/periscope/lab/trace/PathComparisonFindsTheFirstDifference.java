package io.periscope.lab.trace;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PathComparisonFindsTheFirstDifference {

    static TracePacket tcp(String src, String dst) {
        return TracePacket.of(Ipv4Address.parse(src), Ipv4Address.parse(dst), 40000, 80, Protocol.TCP);
    }

    static TraceHop hop(String node, String in, String out, TracePacket arrive, TracePacket depart, TraceEncap encap) {
        return new TraceHop(node, Optional.ofNullable(in), Optional.ofNullable(out), arrive, Optional.ofNullable(depart), Optional.ofNullable(encap));
    }

    static TraceEncap encap(String device, String src, String dst) {
        return new TraceEncap(device, Ipv4Address.parse(src), Ipv4Address.parse(dst), 100, 4800, "eth0");
    }

    /** client -> worker -> gateway (via {@code gateway}, outer destination {@code outer}) -> pod. */
    static TracePath path(String gateway, String outer, String snatTo) {
        TracePacket sent = tcp("10.0.128.4", "242.254.2.254");
        return new TracePath("delivered", List.of(
                hop("c1/default/client", null, "eth0", sent, sent, null),
                hop("c1/worker", "p-client", "vx-submariner", sent, sent, encap("vx-submariner", "172.18.0.10", outer)),
                hop("c1/" + gateway, "vx-submariner", "eth0", sent, tcp(snatTo, "242.254.2.254"), null),
                hop("c2/default/nginx", "eth0", null, tcp(snatTo, "242.254.2.254"), null, null)), List.of(), List.of());
    }

    private final List<TracePath> simulated = List.of(path("gw-1", "172.18.0.6", "242.254.1.1"), path("gw-2", "172.18.0.8", "242.254.1.9"));

    @Test
    void anObservedPathMatchesTheSimulatedPathThroughTheSameHops() {
        PathMatch match = PathComparison.compare(path("gw-2", "172.18.0.8", "242.254.1.9"), simulated);

        assertThat(match.matches()).isTrue();
        assertThat(match.simulatedPath()).isEqualTo(1);
    }

    @Test
    void aDifferentAddressIsReportedWithItsHopAndField() {
        PathMatch match = PathComparison.compare(path("gw-2", "172.18.0.8", "242.254.1.10"), simulated);

        assertThat(match.matches()).isFalse();
        assertThat(match.simulatedPath()).isEqualTo(1);
        assertThat(match.firstDifference()).map(HopDifference::describe)
                .contains("forward hop 3 (c1/gw-2): depart.src simulated 242.254.1.9, observed 242.254.1.10");
    }

    @Test
    void aDifferentEncapsulationIsReported() {
        PathMatch match = PathComparison.compare(path("gw-2", "172.18.0.99", "242.254.1.9"), simulated);

        assertThat(match.firstDifference()).map(HopDifference::field).contains("encap.outerDst");
    }

    @Test
    void aPathThroughHopsTheSimulatorDoesNotKnowIsComparedWithTheClosestOne() {
        PathMatch match = PathComparison.compare(path("gw-3", "172.18.0.8", "242.254.1.9"), simulated);

        assertThat(match.matches()).isFalse();
        assertThat(match.firstDifference()).map(HopDifference::describe)
                .contains("forward hop 3 (c1/gw-3): node simulated c1/gw-1, observed c1/gw-3");
    }

    @Test
    void aShorterObservedPathSaysWhereItEnded() {
        TracePath full = path("gw-1", "172.18.0.6", "242.254.1.1");
        TracePath cut = new TracePath("dropped", full.forward().subList(0, 3), List.of(), List.of());

        PathMatch match = PathComparison.compare(cut, simulated);

        assertThat(match.firstDifference()).map(HopDifference::describe)
                .contains("forward hop 4 (c2/default/nginx): hop simulated c2/default/nginx in eth0, observed (path ends)");
    }

    @Test
    void theSameHopsWithAnotherDispositionDiffer() {
        TracePath observed = path("gw-1", "172.18.0.6", "242.254.1.1");
        TracePath dropped = new TracePath("dropped", observed.forward(), observed.reply(), List.of());

        assertThat(PathComparison.compare(dropped, simulated).firstDifference()).map(HopDifference::describe)
                .contains("path: disposition simulated delivered, observed dropped");
    }

    @Test
    void aNodesSocketAddressLeftToRoutingIsNotCompared() {
        TracePath byNode = path("gw-1", "172.18.0.6", "242.254.1.1");
        TraceHop first = byNode.forward().getFirst();
        TraceHop unbound = new TraceHop(first.node(), first.in(), first.out(), tcp("0.0.0.0", "242.254.2.254"), first.depart(), first.encap());
        List<TraceHop> hops = new java.util.ArrayList<>(byNode.forward());
        hops.set(0, unbound);

        assertThat(PathComparison.compare(byNode, List.of(new TracePath("delivered", hops, List.of(), List.of()))).matches()).isTrue();
    }
}
