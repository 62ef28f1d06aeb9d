package io.periscope.lab.failover;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.LabProbe;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.supervisor.SupervisorStatus;
import io.periscope.lab.trace.TraceHop;
import io.periscope.lab.trace.TracePath;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.globalnet.HeadlessPodOwners;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Pod;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.AllocatedGlobalAddresses;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.TunnelGateways;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-gateway egress ownership with real packets ({@code examples/mag-globalnet-egress.yaml}, its
 * supervisor's agents health-checking): the gateway owning the headless pod {@code cache-0} is
 * blackholed. The worker steers the pod to the survivor and the remote gateways route its global IP
 * to the survivor, so every flow of the file, the pod's both ways included, is delivered through the
 * survivor on exactly the paths {@code trace --fail} predicts, hop for hop. Once healed and past the
 * hold-down, ownership and paths are back as before.
 */
class DeadOwnersHeadlessPodMovesToTheSurvivorAsTraceFailPredicts {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    /** The test's lab, which the helpers below probe and read. */
    private RunningLab lab;

    @BeforeEach
    void needsRoot() {
        SupervisedLab.assumeRootAndNft();
    }

    @Test
    void theDeadOwnersPodIsDeliveredThroughTheSurvivorAndComesBackAfterHeal() throws Exception {
        lab = labs.up(RunningLab.forTest(Examples.load(Examples.MAG_GLOBALNET_EGRESS), "owner-fails"));
        UpLab up = SupervisedLab.upLab(lab);
        ClusterSet set = LabCables.of(lab.set()).set();
        Cluster cluster1 = set.requireCluster("cluster1");
        Pod cache = cluster1.pods().stream().filter(p -> p.name().equals("cache-0")).findFirst().orElseThrow();
        String owner = "cluster1/" + HeadlessPodOwners.ownerOf(cluster1, cache).orElseThrow();
        String survivor = owner.equals("cluster1/gw-1") ? "cluster1/gw-2" : "cluster1/gw-1";
        Ipv4Address cacheGlobal = new AllocatedGlobalAddresses(lab.plan().allocations())
                .headlessPodIngress("cluster1", "default", "cache-0").orElseThrow();

        // What trace --fail predicts: the pod's traffic, both ways, through the survivor.
        ClusterSetPlan predicted = Planner.planWithout(set, List.of(owner));
        Simulator simulator = new Simulator(predicted);
        for (String flow : List.of("headless-pod-to-nginx", "nginx-to-headless-pod")) {
            Set<String> gateways = TunnelGateways.of(simulator.trace(set.flow(flow).orElseThrow()).paths());
            assertThat(gateways).as(flow + " as trace --fail predicts it").contains(survivor).doesNotContain(owner);
        }

        LabFailure failure = new LabFailure(ProcessCommandRunner.here());
        failure.fail(up, owner, FailureMode.BLACKHOLE, line -> { });
        try {
            awaitThat("the worker and both remote gateways consider " + owner + " down and moved the pod", () -> {
                SupervisorStatus status = up.supervisorFiles().readStatus().orElse(null);
                return status != null
                        && List.of("cluster1/worker-1", "cluster2/gw-3", "cluster2/gw-4").stream()
                                .allMatch(n -> status.nodes().get(n) != null && status.nodes().get(n).down().contains(owner))
                        && remoteRoutesPodTo(List.of("gw-3", "gw-4"), cacheGlobal, survivor);
            });
            ProbeReport during = probe(predicted);
            assertThat(during.flows()).hasSameSizeAs(set.flows());
            for (FlowProbeResult flow : during.flows()) {
                assertDeliveredAsSimulated(flow);
                assertThat(crossed(flow)).as(flow.name() + " during the failure").doesNotContain(owner);
            }
            assertThat(crossed(flow(during, "headless-pod-to-nginx"))).contains(survivor);
            assertThat(crossed(flow(during, "nginx-to-headless-pod"))).contains(survivor);
        } finally {
            failure.heal(up, owner, line -> { });
        }

        awaitThat("every agent takes " + owner + " back after the hold-down and the pod goes home", () -> {
            SupervisorStatus status = up.supervisorFiles().readStatus().orElse(null);
            return status != null && status.nodes().values().stream().allMatch(n -> n.down().isEmpty())
                    && remoteRoutesPodTo(List.of("gw-3", "gw-4"), cacheGlobal, owner);
        });
        ProbeReport after = probe(lab.plan());
        for (FlowProbeResult flow : after.flows()) {
            assertDeliveredAsSimulated(flow);
        }
        assertThat(crossed(flow(after, "headless-pod-to-nginx"))).contains(owner).doesNotContain(survivor);
        assertThat(crossed(flow(after, "nginx-to-headless-pod"))).contains(owner).doesNotContain(survivor);
    }

    /**
     * Streams and connections across the owner's failure ({@code lab failover}): the pod's UDP streams
     * move to the survivor and back, as {@code trace --fail} predicts; connections that left through the
     * owner with its slice of a GlobalEgressIP break (through the survivor they leave from its slice,
     * which the server has no connection for), those through the survivor live on.
     */
    @Test
    void theMovedPodsStreamsFollowThePredictionAndTheDeadSlicesConnectionsBreak() throws Exception {
        String text = java.nio.file.Files.readString(Examples.file(Examples.MAG_GLOBALNET_EGRESS))
                .replace("ports: [{port: 80, targetPort: 80, protocol: TCP}]",
                        "ports: [{port: 80, targetPort: 80, protocol: TCP}, {port: 5001, targetPort: 5001, protocol: UDP}]")
                + "  - name: headless-pod-to-nginx-udp\n    from: cluster1/default/cache-0\n"
                + "    to: nginx.default.svc.clusterset.local:5001\n    protocol: udp\n    expect: delivered\n";
        lab = labs.up(RunningLab.forTest(TopologyLoader.parse(text, "mag-globalnet-egress-udp.yaml"), "owner-streams"));
        Cluster cluster1 = LabCables.of(lab.set()).set().requireCluster("cluster1");
        Pod cache = cluster1.pods().stream().filter(p -> p.name().equals("cache-0")).findFirst().orElseThrow();
        String owner = "cluster1/" + HeadlessPodOwners.ownerOf(cluster1, cache).orElseThrow();
        String survivor = owner.equals("cluster1/gw-1") ? "cluster1/gw-2" : "cluster1/gw-1";

        FailoverReport report = new LabFailover(ProcessCommandRunner.here(), new SimulatorFailover()).run(SupervisedLab.upLab(lab),
                new LabFailover.Options(owner, FailureMode.BLACKHOLE, 4, 100, 8, Optional.of(Duration.ofSeconds(3))), line -> { });

        assertThat(report.streams()).hasSize(4).allSatisfy(s -> {
            assertThat(s.before()).as("the pod's stream before").containsExactly(owner);
            assertThat(s.during()).as("the pod's stream during the failure").containsExactly(survivor);
            assertThat(s.after()).as("the pod's stream after the hold-down").contains(owner);
            assertThat(s.received()).isGreaterThan(s.sent() / 2);
        });
        assertThat(report.prediction().differences()).isEmpty();
        assertThat(report.prediction().gatewaysAfter()).contains(survivor).doesNotContain(owner);
        List<FailoverReport.TcpResult> slices = report.tcp().stream()
                .filter(t -> t.outcome().flow().equals("namespace-egress-to-nginx") || t.outcome().flow().equals("pod-egress-to-nginx")).toList();
        assertThat(slices).filteredOn(t -> t.before().equals(Set.of(owner)))
                .allSatisfy(t -> assertThat(t.outcome().fate()).as(t.outcome().flow()).isNotEqualTo("survived"));
        assertThat(slices).filteredOn(t -> t.before().equals(Set.of(survivor)))
                .allSatisfy(t -> assertThat(t.outcome().fate()).as(t.outcome().flow()).isEqualTo("survived"));
    }

    private ProbeReport probe(ClusterSetPlan simulated) {
        List<String> progress = new ArrayList<>();
        return new LabProbe(ProcessCommandRunner.here(), lab.stateFile(), plan -> new SimulatorFlows(simulated))
                .run(Path.of(lab.set().name() + ".yaml"), lab.set(), Optional.empty(), progress::add);
    }

    private static void assertDeliveredAsSimulated(FlowProbeResult flow) {
        assertThat(flow.problem()).as(flow.name()).isEmpty();
        assertThat(flow.attempts()).as(flow.name()).isNotEmpty().allSatisfy(a -> {
            assertThat(a.outcome().disposition()).as("%s from port %d: %s", flow.name(), a.outcome().sourcePort(), a.outcome().problem())
                    .isEqualTo("delivered");
            assertThat(a.match().matches()).as("%s from port %d: %s", flow.name(), a.outcome().sourcePort(), a.match().firstDifference())
                    .isTrue();
        });
    }

    private static FlowProbeResult flow(ProbeReport report, String name) {
        return report.flows().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    /** The cluster1 gateways the observed packets crossed, either way. */
    private static Set<String> crossed(FlowProbeResult flow) {
        Set<String> gateways = new java.util.TreeSet<>();
        flow.attempts().forEach(a -> {
            TracePath observed = a.observed();
            for (List<TraceHop> hops : List.of(observed.forward(), observed.reply())) {
                hops.stream().map(TraceHop::node).filter(n -> n.startsWith("cluster1/gw-")).forEach(gateways::add);
            }
        });
        return gateways;
    }

    /** Whether each remote gateway's kernel routes the pod's global IP (table 100, metric 98) to {@code gateway}'s cable address. */
    private boolean remoteRoutesPodTo(List<String> remotes, Ipv4Address address, String gateway) {
        String gatewayIp = lab.set().requireCluster("cluster1").requireNode(gateway.substring("cluster1/".length())).ip().toString();
        String via = "via 241." + gatewayIp.substring(gatewayIp.indexOf('.') + 1) + " ";
        for (String remote : remotes) {
            String namespace = lab.layout().requireHost(HostId.node("cluster2", remote)).namespace();
            String routes = lab.inNamespace(namespace, "ip", "-4", "route", "show", "table", "100", address + "/32");
            if (!routes.contains(via)) {
                return false;
            }
        }
        return true;
    }

    private static void awaitThat(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited %d s for %s", PATIENCE.toSeconds(), what).isLessThan(deadline);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what);
            }
        }
    }
}
