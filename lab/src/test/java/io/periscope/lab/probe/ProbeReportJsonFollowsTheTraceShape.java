package io.periscope.lab.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.lab.trace.HopDifference;
import io.periscope.lab.trace.PathMatch;
import io.periscope.lab.trace.TraceEncap;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TraceJsonReader;
import io.periscope.lab.trace.TracePacket;
import io.periscope.lab.trace.TracePath;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeReportJsonFollowsTheTraceShape {

    static final TracePacket SENT = TracePacket.of(Ipv4Address.parse("10.0.128.4"), Ipv4Address.parse("242.254.2.254"), 40000, 80,
            Protocol.TCP);

    static final TracePath OBSERVED = new TracePath("delivered", List.of(
            new TraceHop("cluster1/worker-1", Optional.of("p-client"), Optional.of("vx-submariner"), SENT, Optional.of(SENT),
                    Optional.of(new TraceEncap("vx-submariner", Ipv4Address.parse("172.18.0.10"), Ipv4Address.parse("172.18.0.8"), 100, 4800,
                            "eth0"))),
            new TraceHop("cluster1/gw-2", Optional.of("vx-submariner"), Optional.empty(), SENT, Optional.empty(), Optional.empty())),
            List.of(), List.of());

    @Test
    void observedPathsReadBackAsTraceJsonWithTheComparisonBesideThem() throws Exception {
        AttemptOutcome outcome = new AttemptOutcome(40000, 0, "", Optional.of(SENT.src()), "delivered", Optional.empty());
        HopDifference difference = new HopDifference("forward", 2, "cluster1/gw-2", "out", "vxlan-tunnel", "(none)");
        ObservedAttempt attempt = new ObservedAttempt(outcome, OBSERVED, List.of(OBSERVED, OBSERVED), new PathMatch(1, Optional.of(difference)));
        ProbeReport report = new ProbeReport("mag-globalnet", List.of(new FlowProbeResult("client-to-nginx", "cluster1/default/client",
                "nginx.default.svc.clusterset.local:80", "242.254.2.254:80", 2, List.of(attempt), Optional.empty())));

        JsonNode root = new ObjectMapper().readTree(ProbeReportJson.render(report));

        assertThat(root.path("matchesSimulation").asBoolean(true)).isFalse();
        JsonNode flow = root.path("flows").get(0);
        assertThat(flow.path("matchesSimulation").asBoolean(true)).isFalse();
        assertThat(flow.path("firstDifference").path("field").asText()).isEqualTo("out");
        assertThat(flow.path("firstDifference").path("hop").asInt()).isEqualTo(2);
        assertThat(flow.path("simulatedPaths").asInt()).isEqualTo(2);
        JsonNode path = flow.path("paths").get(0);
        assertThat(path.path("sourcePort").asInt()).isEqualTo(40000);
        assertThat(path.path("simulatedPath").asInt()).isEqualTo(2);
        assertThat(TraceJsonReader.path(path)).as("the observed path reads back as trace JSON").isEqualTo(OBSERVED);
    }
}
