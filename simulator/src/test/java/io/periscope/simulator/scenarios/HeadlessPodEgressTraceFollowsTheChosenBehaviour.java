package io.periscope.simulator.scenarios;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Behaviour;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.AllocatedGlobalAddresses;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.RuleRef;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.scenarios.DocumentedSteps.lines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * West's headless pod http-0 (examples/globalnet-egress.yaml) calls east's exported echo service
 * while a namespace GlobalEgressIP covers its namespace myproject. The trace's SNAT on west's gateway
 * says which address the pod leaves with and which rule gave it: the namespace's, from
 * SM-GN-EGRESS-NS, with {@code behaviour: seeds} (seed 002's precedence); its own global IP, from
 * SM-GN-EGRESS-HDLS-PODS, with {@code behaviour: upstream} (upstream's jump order). Either way the
 * reply finds its way back to the pod.
 */
class HeadlessPodEgressTraceFollowsTheChosenBehaviour {

    private static final Flow HTTP_0_TO_ECHO = new Flow("http-0-to-echo", new FlowSource.PodSource("west", "myproject", "http-0"),
            new FlowTarget.DnsTarget("echo.default.svc.clusterset.local", 7), Protocol.TCP, Optional.empty());

    private static ClusterSet coveredHeadlessPod(Behaviour behaviour) throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "globalnet-egress.yaml")).replace("""
                    globalEgressIPs:
                """, """
                    services:
                      - {name: echo, namespace: default, clusterIP: 10.96.0.60, selector: {app: web}, ports: [{port: 7, targetPort: 7, protocol: TCP}]}
                    exports: [default/echo]
                    globalEgressIPs:
                """).replace("""
                    exports: [default/nginx, myproject/http]
                """, """
                    exports: [default/nginx, myproject/http]
                    globalEgressIPs:
                      - {name: myproject-ns, namespace: myproject, numberOfIPs: 1}
                """);
        return TopologyLoader.parse(yaml, "covered-headless-pod.yaml").withBehaviour(behaviour);
    }

    private record Traced(PathTrace path, AllocatedGlobalAddresses global) {

        Ipv4Address own() {
            return global.headlessPodIngress("west", "myproject", "http-0").orElseThrow();
        }

        Ipv4Address namespaces() {
            return global.egress("west", "myproject", "myproject-ns").getFirst();
        }

        Ipv4Address echo() {
            return global.serviceIngress("east", "default", "echo").orElseThrow();
        }

        /** The SNAT west's gateway applied to the pod's first packet. */
        Step.Snat snat() {
            return path.forward().stream().filter(h -> h.node().equals(HostId.node("west", "west-gw"))).map(Hop::steps).flatMap(List::stream)
                    .filter(Step.Snat.class::isInstance).map(Step.Snat.class::cast).findFirst().orElseThrow();
        }
    }

    private static Traced trace(Behaviour behaviour) throws Exception {
        ClusterSet set = coveredHeadlessPod(behaviour);
        ClusterSetPlan plan = Planner.plan(set);
        FlowTrace trace = new Simulator(plan).trace(HTTP_0_TO_ECHO);
        assertThat(trace.paths()).singleElement().satisfies(p -> assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED));
        return new Traced(trace.paths().getFirst(), new AllocatedGlobalAddresses(plan.allocations()));
    }

    @Test
    void withTheSeedsThePodLeavesWithItsNamespacesAddressFromSmGnEgressNs() throws Exception {
        Traced traced = trace(Behaviour.SEEDS);
        assertThat(traced.namespaces()).isNotEqualTo(traced.own());
        assertThat(traced.snat().packet().src()).isEqualTo(traced.namespaces());
        assertThat(traced.snat().rule()).map(RuleRef::chain).contains("SM-GN-EGRESS-NS");
        assertThat(lines(traced.path().forward())).last().isEqualTo(
                "east/default/web: deliver | SRC: " + traced.namespaces() + " DST: 10.244.1.10");
        assertThat(lines(traced.path().reply())).last().isEqualTo(
                "west/myproject/http-0: deliver | SRC: " + traced.echo() + " DST: 10.244.1.20");
    }

    @Test
    void withUpstreamThePodLeavesWithItsOwnGlobalIpFromSmGnEgressHdlsPods() throws Exception {
        Traced traced = trace(Behaviour.UPSTREAM);
        assertThat(traced.snat().packet().src()).isEqualTo(traced.own());
        assertThat(traced.snat().rule()).map(RuleRef::chain).contains("SM-GN-EGRESS-HDLS-PODS");
        assertThat(traced.snat().rule()).map(RuleRef::rule).get().asString().startsWith("-s 10.244.1.20/32 ");
        assertThat(lines(traced.path().forward())).last().isEqualTo(
                "east/default/web: deliver | SRC: " + traced.own() + " DST: 10.244.1.10");
        assertThat(lines(traced.path().reply())).last().isEqualTo(
                "west/myproject/http-0: deliver | SRC: " + traced.echo() + " DST: 10.244.1.20");
    }
}
