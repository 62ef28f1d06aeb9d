package io.periscope.lab.kernel;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.ObservedAttempt;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.trace.TraceHop;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Behaviour;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.planner.AllocatedGlobalAddresses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one Globalnet 2.0 place where seed 002 and upstream disagree, with real packets: west's pod
 * http-0 backs the exported headless service myproject/http, and a namespace GlobalEgressIP covers
 * myproject ({@code examples/globalnet-egress.yaml} with that object added, and an exported service
 * echo in east for the pod to call). The pod connects to echo through the lab, and east's pod sees
 * the connection come from the namespace's global IP with {@code behaviour: seeds} (west's gateway has
 * no rule for the pod in SM-GN-EGRESS-HDLS-PODS, so SM-GN-EGRESS-NS translates it) and from the pod's
 * own global IP with {@code behaviour: upstream} (its rule in SM-GN-EGRESS-HDLS-PODS, jumped to before
 * SM-GN-EGRESS-NS, counts the packet). Either way the reply reaches the pod, and the lab's packets
 * agree hop by hop with the simulator of the same plan
 * ({@code HeadlessPodEgressTraceFollowsTheChosenBehaviour}).
 */
class HeadlessPodEgressFollowsTheChosenBehaviourInTheKernel {

    private static final String FLOW = "http-0-to-echo";
    private static final Ipv4Address HTTP_0 = Ipv4Address.parse("10.244.1.20");

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    private static ClusterSet coveredHeadlessPod(Behaviour behaviour) throws Exception {
        String yaml = Files.readString(Examples.file(Examples.GLOBALNET_EGRESS)).replace("""
                    globalEgressIPs:
                """, """
                    services:
                      - {name: echo, namespace: default, clusterIP: 10.96.0.60, selector: {app: web}, ports: [{port: 8080, targetPort: 8080, protocol: TCP}]}
                    exports: [default/echo]
                    globalEgressIPs:
                """).replace("""
                    exports: [default/nginx, myproject/http]
                """, """
                    exports: [default/nginx, myproject/http]
                    globalEgressIPs:
                      - {name: myproject-ns, namespace: myproject, numberOfIPs: 1}
                """);
        Flow flow = new Flow(FLOW, new FlowSource.PodSource("west", "myproject", "http-0"),
                new FlowTarget.DnsTarget("echo.default.svc.clusterset.local", 8080), Protocol.TCP, Optional.of(Disposition.DELIVERED));
        ClusterSet set = TopologyLoader.parse(yaml, "covered-headless-pod.yaml").withFlows(List.of(flow)).withBehaviour(behaviour);
        return RunningLab.forTest(set, "hdls-" + behaviour.yamlName());
    }

    /** Every connection of the flow was delivered and matched the simulated path; returns them. */
    private static List<ObservedAttempt> deliveredAsSimulated(ProbeReport report) {
        FlowProbeResult result = report.flows().stream().filter(f -> f.name().equals(FLOW)).findFirst().orElseThrow();
        assertThat(result.problem()).as(FLOW).isEmpty();
        assertThat(result.attempts()).as(FLOW).isNotEmpty();
        assertThat(result.matchesSimulation()).as("%s: %s", FLOW, result.firstDifference().map(d -> d.describe()).orElse("")).isTrue();
        assertThat(result.attempts()).allSatisfy(a -> assertThat(a.outcome().disposition()).as(FLOW).isEqualTo("delivered"));
        return result.attempts();
    }

    /** The source east's pod saw. */
    private static Ipv4Address atTheServer(ObservedAttempt attempt) {
        return attempt.observed().forward().getLast().arrive().src();
    }

    /** The source the pod's packet left west's gateway with. */
    private static Ipv4Address leavingWestsGateway(ObservedAttempt attempt) {
        TraceHop gateway = attempt.observed().forward().stream().filter(h -> h.node().equals("west/west-gw")).findFirst().orElseThrow();
        return gateway.depart().orElseThrow().src();
    }

    /** West gateway's nat rules of the chain, with their packet counters: {@code [packets:bytes] -A CHAIN ...}. */
    private static List<String> westGatewayRules(RunningLab lab, String chain) {
        String namespace = lab.layout().requireHost(HostId.node("west", "west-gw")).namespace();
        String saved = lab.inNamespace(namespace, "iptables-save", "-c", "-t", "nat");
        return Arrays.stream(saved.split("\n")).filter(l -> l.contains("] -A " + chain + " ")).toList();
    }

    private static long packets(String countedRule) {
        return Long.parseLong(countedRule.substring(1, countedRule.indexOf(':')));
    }

    @Test
    void withTheSeedsTheRemoteSideSeesTheNamespacesGlobalIp() throws Exception {
        RunningLab lab = labs.up(coveredHeadlessPod(Behaviour.SEEDS));
        AllocatedGlobalAddresses global = new AllocatedGlobalAddresses(lab.plan().allocations());
        Ipv4Address namespaces = global.egress("west", "myproject", "myproject-ns").getFirst();
        Ipv4Address own = global.headlessPodIngress("west", "myproject", "http-0").orElseThrow();
        assertThat(namespaces).isNotEqualTo(own);

        ProbeReport report = lab.probe(Optional.of(FLOW), SimulatorFlows::new);

        assertThat(deliveredAsSimulated(report)).allSatisfy(a -> {
            assertThat(leavingWestsGateway(a)).isEqualTo(namespaces);
            assertThat(atTheServer(a)).as("the source east's pod sees").isEqualTo(namespaces);
        });
        assertThat(westGatewayRules(lab, "SM-GN-EGRESS-HDLS-PODS")).as("no rule for a pod the namespace's object covers")
                .noneMatch(r -> r.contains("-s " + HTTP_0 + "/32 "));
        assertThat(westGatewayRules(lab, "SM-GN-EGRESS-NS")).singleElement().satisfies(r -> assertThat(packets(r)).isPositive());
    }

    @Test
    void withUpstreamTheRemoteSideSeesThePodsOwnGlobalIp() throws Exception {
        RunningLab lab = labs.up(coveredHeadlessPod(Behaviour.UPSTREAM));
        AllocatedGlobalAddresses global = new AllocatedGlobalAddresses(lab.plan().allocations());
        Ipv4Address own = global.headlessPodIngress("west", "myproject", "http-0").orElseThrow();

        ProbeReport report = lab.probe(Optional.of(FLOW), SimulatorFlows::new);

        assertThat(deliveredAsSimulated(report)).allSatisfy(a -> {
            assertThat(leavingWestsGateway(a)).isEqualTo(own);
            assertThat(atTheServer(a)).as("the source east's pod sees").isEqualTo(own);
        });
        assertThat(westGatewayRules(lab, "SM-GN-EGRESS-HDLS-PODS")).filteredOn(r -> r.contains("-s " + HTTP_0 + "/32 "))
                .singleElement().satisfies(r -> {
                    assertThat(r).endsWith("-j SNAT --to-source " + own);
                    assertThat(packets(r)).isPositive();
                });
        // The namespace's rule is there too, as upstream programs it, but the pod's packets never reach it.
        assertThat(westGatewayRules(lab, "SM-GN-EGRESS-NS")).singleElement().satisfies(r -> assertThat(packets(r)).isZero());
    }
}
