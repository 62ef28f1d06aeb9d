package io.periscope.simulator.scenarios;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static io.periscope.simulator.scenarios.DocumentedSteps.lines;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user stories of seed 002 on examples/globalnet-egress.yaml (east's pods calling west's
 * exported services), and seed 000's pod-to-remote-service flow with the first Globalnet design.
 */
class GlobalnetUserStoriesFollowSeeds002And000 {

    private static final String EXAMPLE = "globalnet-egress.yaml";

    private static PathTrace onlyPath(Simulator simulator, ClusterSet set, String flow) throws Exception {
        FlowTrace trace = simulator.trace(set.flow(flow).orElseThrow());
        assertThat(trace.paths()).singleElement().satisfies(p -> assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED));
        return trace.paths().getFirst();
    }

    private static List<String> natLines(List<io.periscope.simulator.trace.Hop> hops) {
        return lines(hops).stream().filter(l -> l.contains(": snat") || l.contains(": dnat") || l.contains("nsnat") || l.contains("ndnat")
                || l.contains(": deliver")).toList();
    }

    @Test
    void defaultScenarioPodsLeaveWithOneOfTheClusterEgressAddresses() throws Exception {
        ClusterSet set = DocumentedSteps.load(EXAMPLE);
        PathTrace path = onlyPath(new Simulator(Planner.plan(set)), set, "web-to-nginx");
        assertThat(natLines(path.forward())).containsExactly(
                "east/east-gw: snat SM-GN-EGRESS-CLUSTER | SRC: 242.0.0.3 DST: 242.1.255.254",
                "west/west-gw: dnat KUBE-SEP | SRC: 242.0.0.3 DST: 10.244.1.10",
                "west/default/nginx-1: deliver | SRC: 242.0.0.3 DST: 10.244.1.10");
        // The reply comes from the service's global IP (seed 002: "the response from the backend
        // Pods will have the source as the globalIP of the exportedService").
        assertThat(natLines(path.reply())).containsExactly(
                "west/west-gw: undnat | SRC: 242.1.255.254 DST: 242.0.0.3",
                "east/east-gw: unsnat | SRC: 242.1.255.254 DST: 10.244.1.10",
                "east/default/web: deliver | SRC: 242.1.255.254 DST: 10.244.1.10");
    }

    @Test
    void aNamespaceGlobalEgressIpTakesPrecedenceOverTheClusters() throws Exception {
        ClusterSet set = DocumentedSteps.load(EXAMPLE);
        Flow reportToNginx = new Flow("report-to-nginx", new FlowSource.PodSource("east", "ns1", "report"),
                new FlowTarget.DnsTarget("nginx.default.svc.clusterset.local", 8080), Protocol.TCP, Optional.empty());
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(reportToNginx);
        assertThat(natLines(trace.paths().getFirst().forward())).first()
                .isEqualTo("east/east-gw: snat SM-GN-EGRESS-NS | SRC: 242.0.255.254 DST: 242.1.255.254");
    }

    @Test
    void aPodSelectorGlobalEgressIpTakesPrecedenceOverItsNamespaces() throws Exception {
        ClusterSet set = DocumentedSteps.load(EXAMPLE);
        PathTrace path = onlyPath(new Simulator(Planner.plan(set)), set, "db-to-nginx");
        assertThat(natLines(path.forward())).first().asString()
                .matches("east/east-gw: snat SM-GN-EGRESS-PODS \\| SRC: 242\\.0\\.0\\.(9|10) DST: 242\\.1\\.255\\.254");
    }

    @Test
    void anExportedHeadlessServicePodIsReachedAtItsOwnGlobalIp() throws Exception {
        ClusterSet set = DocumentedSteps.load(EXAMPLE);
        PathTrace path = onlyPath(new Simulator(Planner.plan(set)), set, "report-to-http-0");
        assertThat(natLines(path.forward())).containsExactly(
                "east/east-gw: snat SM-GN-EGRESS-NS | SRC: 242.0.255.254 DST: 242.1.255.253",
                "west/west-gw: dnat SUBMARINER-GN-INGRESS | SRC: 242.0.255.254 DST: 10.244.1.20",
                "west/myproject/http-0: deliver | SRC: 242.0.255.254 DST: 10.244.1.20");
    }

    @Test
    void anExportedHeadlessServicePodLeavesWithThatSameGlobalIp() throws Exception {
        // East exports a service too, so west's headless pod can call it: the pod's egress address is
        // its own ingress address (seed 002: "used for both ingress as-well-as egress").
        String yaml = Files.readString(Path.of("..", "examples", EXAMPLE)).replace("""
                    globalEgressIPs:
                """, """
                    services:
                      - {name: echo, namespace: default, clusterIP: 10.96.0.60, selector: {app: web}, ports: [{port: 7, targetPort: 7, protocol: TCP}]}
                    exports: [default/echo]
                    globalEgressIPs:
                """);
        ClusterSet set = TopologyLoader.parse(yaml, "headless-both-ways.yaml");
        Flow httpToEcho = new Flow("http-0-to-echo", new FlowSource.PodSource("west", "myproject", "http-0"),
                new FlowTarget.DnsTarget("echo.default.svc.clusterset.local", 7), Protocol.TCP, Optional.empty());
        FlowTrace trace = new Simulator(Planner.plan(set)).trace(httpToEcho);
        assertThat(trace.paths()).singleElement().satisfies(p -> assertThat(p.disposition()).isEqualTo(Disposition.DELIVERED));
        assertThat(natLines(trace.paths().getFirst().forward())).first()
                .isEqualTo("west/west-gw: snat SM-GN-EGRESS-HDLS-PODS | SRC: 242.1.255.253 DST: 242.0.255.253");
    }

    @Test
    void legacyGlobalnetGivesEachPodItsOwnGlobalIpAndSendsServiceGlobalIpsIntoKubeProxy() throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", EXAMPLE))
                .replace("  clusterSize: 65536\n", "  clusterSize: 65536\n  mode: legacy\n")
                .replaceAll("(?s)    globalEgressIPs:.*?(?=  - name: west)", "");
        ClusterSet set = TopologyLoader.parse(yaml, "legacy.yaml");
        PathTrace path = onlyPath(new Simulator(Planner.plan(set)), set, "web-to-nginx");
        List<String> forward = natLines(path.forward());
        assertThat(forward.getFirst()).matches("east/east-gw: snat SUBMARINER-GN-EGRESS \\| SRC: 242\\.0\\.255\\.\\d+ DST: 242\\.1\\.255\\.254");
        assertThat(forward.get(1)).matches("west/west-gw: dnat KUBE-SEP \\| SRC: 242\\.0\\.255\\.\\d+ DST: 10\\.244\\.1\\.10");
    }
}
