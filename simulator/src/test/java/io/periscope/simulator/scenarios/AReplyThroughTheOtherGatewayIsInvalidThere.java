package io.periscope.simulator.scenarios;

import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;

import static io.periscope.simulator.scenarios.DocumentedSteps.pathThrough;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 004 without Globalnet: the SYN went out through GW-2 and the SYN-ACK comes back through GW-1,
 * which never saw the connection; its conntrack finds no entry and a SYN-ACK opens none, so the hop says
 * INVALID (and no entry), while GW-2 holds the NEW entry of the forward way.
 */
class AReplyThroughTheOtherGatewayIsInvalidThere {

    @Test
    void gw1SeesTheReplyInvalidAndGw2HeldTheForwardEntry() throws Exception {
        Simulator simulator = DocumentedSteps.simulator("mag-vanilla.yaml");
        FlowTrace trace = simulator.trace(DocumentedSteps.load("mag-vanilla.yaml").flow("client-to-nginx").orElseThrow());
        PathTrace path = pathThrough(trace, "via 240.18.0.8", "via 241.18.0.9", "via 241.18.0.6");

        Hop gw1 = path.reply().stream().filter(h -> h.node().toString().equals("cluster1/gw-1")).findFirst().orElseThrow();
        ConntrackLookup inner = gw1.conntrack().getLast();
        assertThat(inner.packet().src().toString()).isEqualTo("100.2.0.132");
        assertThat(inner.state()).isEqualTo(ConntrackLookup.State.INVALID);
        assertThat(inner.entry()).isEmpty();

        Hop gw2 = path.forward().stream().filter(h -> h.node().toString().equals("cluster1/gw-2")).findFirst().orElseThrow();
        ConntrackLookup forward = gw2.conntrack().stream().filter(l -> l.packet().src().toString().equals("10.1.128.4"))
                .findFirst().orElseThrow();
        assertThat(forward.state()).isEqualTo(ConntrackLookup.State.NEW);
        assertThat(forward.entry().orElseThrow().confirmed()).isTrue();
        assertThat(forward.entry().orElseThrow().original().dst().toString()).isEqualTo("100.2.0.132");
    }
}
