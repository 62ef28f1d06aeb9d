package io.periscope.simulator;

import io.periscope.plan.HostId;

/**
 * The smallest routed cluster: nodes n1 (172.18.0.1, CNI 10.0.1.1) and n2 (172.18.0.2, CNI 10.0.2.1)
 * on one underlay, each routing the other's pod block through it; pod {@code client} (10.0.1.4) on n1
 * and pod {@code server} (10.0.2.5) on n2.
 */
final class TwoNodeCluster {

    static final HostId N1 = HostId.node("c1", "n1");
    static final HostId N2 = HostId.node("c1", "n2");
    static final HostId CLIENT = HostId.pod("c1", "default", "client");
    static final HostId SERVER = HostId.pod("c1", "default", "server");

    final PlanFixture fixture = new PlanFixture();
    final PlanFixture.HostBuilder n1 = fixture.node("c1", "n1", "172.18.0.1", "10.0.1.1");
    final PlanFixture.HostBuilder n2 = fixture.node("c1", "n2", "172.18.0.2", "10.0.2.1");
    final PlanFixture.HostBuilder client = fixture.pod(n1, "default", "client", "10.0.1.4");
    final PlanFixture.HostBuilder server = fixture.pod(n2, "default", "server", "10.0.2.5");

    TwoNodeCluster() {
        n1.route("172.18.0.2 dev eth0").route("10.0.2.0/24 via 172.18.0.2 dev eth0");
        n2.route("172.18.0.1 dev eth0").route("10.0.1.0/24 via 172.18.0.1 dev eth0");
    }

    Simulator simulator() {
        return new Simulator(fixture.build());
    }
}
