package io.periscope.simulator;

import io.periscope.plan.HostId;
import io.periscope.plan.routing.PolicyRule;

/**
 * Two clusters of one gateway each, on the WAN: g1 (wan0 198.51.100.1, CNI 10.1.0.1) with pod
 * {@code client} (10.1.0.5), and g2 (wan0 198.51.100.2, CNI 10.2.0.1) with pod {@code server}
 * (10.2.0.5). Each routes the other's endpoint address over the WAN and consults table 100 first;
 * what table 100 holds, and which cable carries it, is the test's to add.
 */
final class TwoGatewaysOverTheWan {

    static final HostId G1 = HostId.node("c1", "g1");
    static final HostId G2 = HostId.node("c2", "g2");
    static final HostId CLIENT = HostId.pod("c1", "default", "client");
    static final HostId SERVER = HostId.pod("c2", "default", "server");

    final PlanFixture fixture = new PlanFixture();
    final PlanFixture.HostBuilder g1 = fixture.gateway("c1", "g1", "172.18.1.2", "10.1.0.1", "198.51.100.1");
    final PlanFixture.HostBuilder g2 = fixture.gateway("c2", "g2", "172.18.2.2", "10.2.0.1", "198.51.100.2");
    final PlanFixture.HostBuilder client = fixture.pod(g1, "default", "client", "10.1.0.5");
    final PlanFixture.HostBuilder server = fixture.pod(g2, "default", "server", "10.2.0.5");

    TwoGatewaysOverTheWan() {
        g1.route("198.51.100.2 dev wan0").rule(PolicyRule.lookup(100, 100));
        g2.route("198.51.100.1 dev wan0").rule(PolicyRule.lookup(100, 100));
    }

    Simulator simulator() {
        return new Simulator(fixture.build());
    }
}
