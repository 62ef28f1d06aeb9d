package io.periscope.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TraceText;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static org.assertj.core.api.Assertions.assertThat;

/** A flow from client to server that n1 SNATs to 10.0.1.200-10.0.1.207, in both output formats. */
class TraceOutputFollowsTheSpec {

    private final FlowTrace trace;

    TraceOutputFollowsTheSpec() throws FlowResolutionException {
        TwoNodeCluster cluster = new TwoNodeCluster();
        cluster.n1.append(Table.NAT, "POSTROUTING", Rule.of(new Target.Jump("SM-EGRESS")))
                .append(Table.NAT, "SM-EGRESS", Rule.of(new Target.Snat(Ipv4Range.parse("10.0.1.200-10.0.1.207")),
                        new Match.Source(net("10.0.1.0/24")), new Match.MarkIs(0, 0, false)));
        cluster.n2.route("10.0.1.200/29 via 172.18.0.1 dev eth0");
        trace = cluster.simulator().trace(new Flow("client-to-server", new FlowSource.PodSource("c1", "default", "client"),
                new FlowTarget.PodTarget("c1", "default", "server", 8080), Protocol.TCP, Optional.empty()));
    }

    @Test
    void jsonHasTheFlowsPathsHopsAndStepsOfSectionThree() throws Exception {
        JsonNode root = new ObjectMapper().readTree(TraceJson.render(List.of(trace)));

        JsonNode flow = root.get("flows").get(0);
        assertThat(flow.get("name").asText()).isEqualTo("client-to-server");
        assertThat(flow.get("from").asText()).isEqualTo("c1/default/client");
        assertThat(flow.get("to").asText()).isEqualTo("c1/default/server:8080");
        assertThat(flow.get("resolved").asText()).isEqualTo("10.0.2.5:8080");
        JsonNode path = flow.get("paths").get(0);
        assertThat(path.get("disposition").asText()).isEqualTo("delivered");

        JsonNode first = path.get("forward").get("hops").get(0);
        assertThat(first.get("node").asText()).isEqualTo("c1/default/client");
        assertThat(first.has("in")).isFalse();
        assertThat(first.get("out").asText()).isEqualTo("eth0");
        assertThat(first.get("arrive").get("src").asText()).isEqualTo("10.0.1.4");
        assertThat(first.get("arrive").get("dst").asText()).isEqualTo("10.0.2.5");
        assertThat(first.get("arrive").get("sport").asInt()).isEqualTo(40000);
        assertThat(first.get("arrive").get("dport").asInt()).isEqualTo(8080);
        assertThat(first.get("arrive").get("proto").asText()).isEqualTo("tcp");

        JsonNode n1 = path.get("forward").get("hops").get(1);
        assertThat(n1.get("node").asText()).isEqualTo("c1/n1");
        assertThat(n1.get("in").asText()).isEqualTo("v-client");
        List<String> kinds = new ArrayList<>();
        n1.get("steps").forEach(s -> kinds.add(s.get("kind").asText()));
        assertThat(kinds).containsExactly("route", "snat");
        JsonNode route = n1.get("steps").get(0);
        assertThat(route.get("table").asText()).isEqualTo("main");
        assertThat(route.get("route").asText()).isEqualTo("10.0.2.0/24 via 172.18.0.2 dev eth0 proto static");
        assertThat(route.get("via").asText()).isEqualTo("172.18.0.2");
        JsonNode snat = n1.get("steps").get(1);
        assertThat(snat.get("table").asText()).isEqualTo("nat");
        assertThat(snat.get("chain").asText()).isEqualTo("SM-EGRESS");
        assertThat(snat.get("rule").asText()).isEqualTo("-s 10.0.1.0/24 -m mark --mark 0x0/0x0 -j SNAT --to-source 10.0.1.200-10.0.1.207");
        String chosen = snat.get("packet").get("src").asText();
        assertThat(Ipv4Range.parse("10.0.1.200-10.0.1.207").contains(ip(chosen))).isTrue();
        assertThat(n1.get("depart").get("src").asText()).isEqualTo(chosen);

        JsonNode lastForward = path.get("forward").get("hops").get(3);
        assertThat(lastForward.has("depart")).isFalse();
        assertThat(lastForward.get("steps").get(1).get("kind").asText()).isEqualTo("deliver");

        JsonNode replyAtN1 = path.get("reply").get("hops").get(2);
        assertThat(replyAtN1.get("node").asText()).isEqualTo("c1/n1");
        assertThat(replyAtN1.get("steps").get(0).get("kind").asText()).isEqualTo("unsnat");
        assertThat(replyAtN1.get("steps").get(0).get("packet").get("dst").asText()).isEqualTo("10.0.1.4");
    }

    @Test
    void textHasAHeaderPerPathALinePerHopAndSrcDstAfterEveryStep() {
        String text = TraceText.render(trace);
        List<String> lines = text.lines().toList();

        assertThat(lines.getFirst()).isEqualTo("flow client-to-server: c1/default/client -> c1/default/server:8080 (10.0.2.5:8080)");
        assertThat(lines).contains("path 1 of 1: delivered", "  forward", "  reply");
        assertThat(lines).anySatisfy(l -> assertThat(l.strip()).isEqualTo("2. c1/n1  in v-client  out eth0"));
        assertThat(lines).anySatisfy(l -> assertThat(l.strip())
                .isEqualTo("route table main: 10.0.2.0/24 via 172.18.0.2 dev eth0 proto static -> via 172.18.0.2"));
        assertThat(lines).anySatisfy(l -> assertThat(l.strip()).startsWith("snat nat/SM-EGRESS: -s 10.0.1.0/24"));
        assertThat(lines).anySatisfy(l -> assertThat(l.strip()).isEqualTo("unsnat (conntrack reply): destination back to 10.0.1.4"));
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean stepLine = line.startsWith("       ") && !line.startsWith("         ");
            if (stepLine) {
                assertThat(lines.get(i + 1).strip()).as("line after '%s'", line.strip()).matches("SRC: \\S+ DST: \\S+");
            }
        }
        assertThat(lines).contains("         SRC: 10.0.1.4:40000 DST: 10.0.2.5:8080");
    }
}
