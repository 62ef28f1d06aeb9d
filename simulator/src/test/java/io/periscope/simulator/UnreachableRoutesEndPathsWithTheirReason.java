package io.periscope.simulator;

import io.periscope.model.topology.Disposition;
import io.periscope.plan.routing.Route;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;

import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.tcp;
import static io.periscope.simulator.TwoGatewaysOverTheWan.CLIENT;
import static io.periscope.simulator.TwoGatewaysOverTheWan.G1;
import static org.assertj.core.api.Assertions.assertThat;

class UnreachableRoutesEndPathsWithTheirReason {

    @Test
    void anUnreachableRouteMakesThePathUnreachableAndItsReasonIsShown() {
        TwoGatewaysOverTheWan wan = new TwoGatewaysOverTheWan();
        wan.g1.route(Route.unreachable(Route.MAIN_TABLE, net("10.2.0.0/16"), "no ClusterConnectivityPolicy connects c1 and c2"));
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.UNREACHABLE);
        assertThat(path.forward().getLast().node()).isEqualTo(G1);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r)
                .contains("unreachable 10.2.0.0/16 proto static").endsWith(": no ClusterConnectivityPolicy connects c1 and c2"));
    }

    @Test
    void aBlackholeRouteDropsThePacket() {
        TwoGatewaysOverTheWan wan = new TwoGatewaysOverTheWan();
        wan.g1.route("blackhole 10.2.0.0/16");
        PathTrace path = wan.simulator().trace(tcp(CLIENT, "10.1.0.5", "10.2.0.5", 5432)).getFirst();

        assertThat(path.disposition()).isEqualTo(Disposition.DROPPED);
        assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("dropped by route 'blackhole 10.2.0.0/16"));
    }
}
