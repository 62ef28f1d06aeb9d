package io.periscope.lab.link;

import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shaped uplink carries its rate each way, and a cable's rate nested under a faster uplink carries
 * the cable's: one iperf3 TCP flow through each reaches 90 to 100% of the rate (TCP's and Ethernet's
 * headers take 4.4% of a full frame, so the payload can reach 95.6% of a rate counted in frames).
 */
class ShapedLinksCarryTheirRateInTheKernel {

    private static final double WORKER_RATE = 20e6;
    private static final double CABLE_RATE = 10e6;

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void uplinksBothWaysAndACableUnderAFasterUplink() {
        RunningLab lab = labs.upWithoutSupervisor(LinkedTopologies.twoClusters("labtest-rate-" + ProcessHandle.current().pid(),
                "rate: 20mbit", "rate: 50mbit", "rate: 10mbit"));
        assertThat(lab.progress()).anyMatch(line -> line.startsWith("links: 7 devices shaped in 5 namespaces (2 cable classes)"));
        String worker = lab.layout().requireHost(HostId.node("east", "east-worker")).namespace();
        String eastGw = lab.layout().requireHost(HostId.node("east", "east-gw")).namespace();
        String westGw = lab.layout().requireHost(HostId.node("west", "west-gw")).namespace();

        double workerSends = Iperf3.goodput(worker, eastGw, "172.31.41.2", 4, false);
        double workerReceives = Iperf3.goodput(worker, eastGw, "172.31.41.2", 4, true);
        double cableEastToWest = Iperf3.goodput(eastGw, westGw, "172.31.42.2", 4, false);
        double cableWestToEast = Iperf3.goodput(eastGw, westGw, "172.31.42.2", 4, true);
        System.out.printf(Locale.ROOT, "iperf3 TCP goodput: east-worker uplink 20mbit: sending %.2f Mbit/s (%.1f%%), receiving %.2f Mbit/s (%.1f%%);"
                        + " cable 10mbit under east-gw's 50mbit uplink: east to west %.2f Mbit/s (%.1f%%), west to east %.2f Mbit/s (%.1f%%)%n",
                workerSends / 1e6, 100 * workerSends / WORKER_RATE, workerReceives / 1e6, 100 * workerReceives / WORKER_RATE,
                cableEastToWest / 1e6, 100 * cableEastToWest / CABLE_RATE, cableWestToEast / 1e6, 100 * cableWestToEast / CABLE_RATE);

        assertThat(workerSends / WORKER_RATE).as("east-worker's uplink, leaving").isBetween(0.90, 1.0);
        assertThat(workerReceives / WORKER_RATE).as("east-worker's uplink, arriving").isBetween(0.90, 1.0);
        assertThat(cableEastToWest / CABLE_RATE).as("the cable, east to west").isBetween(0.90, 1.0);
        assertThat(cableWestToEast / CABLE_RATE).as("the cable, west to east").isBetween(0.90, 1.0);
    }
}
