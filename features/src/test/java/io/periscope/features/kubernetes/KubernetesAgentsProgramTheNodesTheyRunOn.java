package io.periscope.features.kubernetes;

import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.features.kubernetes.KubernetesControlPlane.MemberCluster;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GatewayStatus;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.LabProbe;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.planner.Planner;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The production Kubernetes agents on a real kernel. The lab builds the clusters' nodes and pods as
 * network namespaces with only the CNI's and kube-proxy's part; the API servers (fabric8's CRUD mock)
 * hold the clusters as Kubernetes objects; the gateway agents, route agents, Globalnet replicas and
 * broker syncs and DNS servers of agents/kubernetes, each a {@code periscope-agent} process inside
 * the namespace of the node it runs on ({@link LabNodeProcesses}), program the nodes. Before they start, no node holds its layer
 * and no packet crosses; once they converged, each node's kernel, read back, is what
 * {@code periscope plan} says for it, and a real packet goes from a pod of one cluster to a pod of
 * the other; a flow written with a service's name asks the production DNS server first.
 *
 * <p>Needs root (it creates network namespaces); run under {@code flock /tmp/periscope-lab.lock}.
 */
class KubernetesAgentsProgramTheNodesTheyRunOn {

    /** Two clusters, one gateway and one worker each, a VXLAN cable (the kernel here has no XFRM for Libreswan). */
    private static final String TWO_CLUSTERS = """
            name: k8s-on-lab
            defaults:
              cableDriver: vxlan
            clusters:
              - name: east
                podCIDRs: [10.41.0.0/16]
                serviceCIDRs: [100.41.0.0/16]
                nodes:
                  - {name: east-gw, ip: 172.31.40.2, cniIP: 10.41.0.1, gateway: true}
                  - {name: east-worker, ip: 172.31.40.3, cniIP: 10.41.1.1}
                pods:
                  - {name: client, namespace: default, node: east-worker, ip: 10.41.1.10, labels: {app: client}}
              - name: west
                podCIDRs: [10.42.0.0/16]
                serviceCIDRs: [100.42.0.0/16]
                nodes:
                  - {name: west-gw, ip: 172.31.40.4, cniIP: 10.42.0.1, gateway: true}
                  - {name: west-worker, ip: 172.31.40.5, cniIP: 10.42.1.1}
                pods:
                  - {name: server, namespace: default, node: west-worker, ip: 10.42.1.10, labels: {app: server}}
            flows:
              - {name: client-to-server, from: east/default/client, to: west/default/server:8080, protocol: tcp, expect: delivered}
            """;

    private static final Path EXAMPLES = Path.of("..", "examples");

    /** Informers, Leases, the Endpoints' trip through the broker and a few reconciles: seconds; a minute and a half is ample on a busy machine. */
    private static final Duration CONVERGENCE = Duration.ofSeconds(90);

    @TempDir
    Path state;

    @BeforeEach
    void needsRoot() {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create network namespaces");
    }

    @Test
    void twoClustersOfOneGatewayEachCarryAConnectionAlongTheSimulatedPath() throws Exception {
        ClusterSet set = forThisRun(TopologyLoader.parse(TWO_CLUSTERS, "k8s-on-lab.yaml"));
        try (KubernetesOnTheLab lab = KubernetesOnTheLab.up(set, state)) {
            String client = pod(lab, "east", "default", "client");
            beforeTheAgents(lab, client, "10.42.1.10");

            programmedByTheAgents(lab);
            pings(lab, client, "10.42.1.10");
            probedAlongTheSimulatedPath(lab, "client-to-server");
        }
    }

    /**
     * Seed 004's drawing without Globalnet: two active gateways per cluster (a Lease per node), the
     * workers load-balancing over them; the example's own flow asks cluster1's DNS server (the
     * production one) for the exported service and connects to the answer.
     */
    @Test
    void multipleActiveGatewaysOfMagVanillaProgramTheirNodesAndAPodReachesTheExportedServiceByName() throws Exception {
        ClusterSet set = forThisRun(TopologyLoader.load(EXAMPLES.resolve("mag-vanilla.yaml")));
        try (KubernetesOnTheLab lab = KubernetesOnTheLab.up(set, state)) {
            String client = pod(lab, "cluster1", "default", "client");
            beforeTheAgents(lab, client, "10.2.128.5");

            programmedByTheAgents(lab);
            pings(lab, client, "10.2.128.5");
            probedAlongTheSimulatedPath(lab, "client-to-nginx");
        }
    }

    /**
     * Seed 004's drawing with Globalnet: overlapping CIDRs, two active gateways per cluster, the
     * Globalnet replicas allocating the gateways' cluster egress IPs and the exported service's
     * global IP, which the gateway agents program; cluster1's client connects to the service by
     * name (the example's flow: the DNS server answers the global IP) and by that global IP.
     */
    @Test
    void globalnetOfMagGlobalnetIsProgrammedAsPlannedAndAPodReachesAnExportedServiceByItsGlobalIp() throws Exception {
        ClusterSet example = forThisRun(TopologyLoader.load(EXAMPLES.resolve("mag-globalnet.yaml")));
        Ipv4Address nginx = Planner.plan(example).allocations().cluster("cluster2").orElseThrow().serviceGlobalIp("default", "nginx").orElseThrow();
        List<Flow> flows = new ArrayList<>(example.flows());
        flows.add(new Flow("client-to-nginx-global-ip", FlowEndpointSyntax.parseSource("cluster1/default/client"),
                FlowEndpointSyntax.parseTarget(nginx + ":80"), Protocol.TCP, Optional.empty()));
        ClusterSet set = example.withFlows(flows);
        try (KubernetesOnTheLab lab = KubernetesOnTheLab.up(set, state)) {
            beforeTheAgents(lab);

            programmedByTheAgents(lab);
            probedAlongTheSimulatedPath(lab, "client-to-nginx");
            probedAlongTheSimulatedPath(lab, "client-to-nginx-global-ip");
        }
    }

    /**
     * Seed 002's GlobalEgressIPs (a namespace's, a pod selector's) and an exported headless service
     * behind two active gateways per cluster with per-gateway egress ownership: the Globalnet replica
     * allocates each gateway its slice, the gateway agents program them, and every flow of the
     * example leaves from the addresses the simulator says, on every path it takes.
     */
    @Test
    void globalEgressIpsOfMagGlobalnetEgressAreProgrammedAsPlannedAndEveryFlowTakesTheSimulatedPaths() throws Exception {
        ClusterSet set = forThisRun(TopologyLoader.load(EXAMPLES.resolve("mag-globalnet-egress.yaml")));
        try (KubernetesOnTheLab lab = KubernetesOnTheLab.up(set, state)) {
            beforeTheAgents(lab);

            programmedByTheAgents(lab);
            for (Flow flow : set.flows()) {
                probedAlongTheSimulatedPath(lab, flow.name());
            }
        }
    }

    /** No node holds its layer yet, and nothing crosses between the clusters: whatever does later is the agents' doing. */
    private static void beforeTheAgents(KubernetesOnTheLab lab, String fromNamespace, String to) {
        beforeTheAgents(lab);
        CommandResult ping = lab.inNamespace(fromNamespace, "ping", "-c", "1", "-W", "1", to);
        assertThat(ping.succeeded()).as("ping to %s before the agents", to).isFalse();
    }

    private static void beforeTheAgents(KubernetesOnTheLab lab) {
        assertThat(lab.progress()).as("lab up's lines").anySatisfy(line -> assertThat(line).startsWith("agents: 0 programs"));
        for (HostNamespace node : lab.layout().nodes()) {
            assertThat(node.plan().submariner().isEmpty()).as("periscope plan gives %s a layer", node.host()).isFalse();
            assertThat(lab.differences(node)).as("%s before the agents", node.host()).isNotEmpty();
        }
    }

    /** Starts the agents and waits until every node's kernel reads back as its layer in periscope plan. */
    private static void programmedByTheAgents(KubernetesOnTheLab lab) throws InterruptedException {
        KubernetesControlPlane plane = lab.startAgents();
        Map<HostNamespace, List<String>> left = untilConverged(lab);
        for (HostNamespace node : lab.layout().nodes()) {
            DataplanePlan layer = node.plan().submariner();
            System.out.println(node.host() + " (" + node.namespace() + "): planned " + layer.netfilter().stream().mapToInt(t -> t.chains().size()).sum()
                    + " chains, " + layer.ipsets().size() + " ipsets, " + layer.routes().size() + " routes, " + layer.rules().size() + " rules, "
                    + layer.vxlanDevices().size() + " vxlan devices; still different: " + left.getOrDefault(node, List.of()));
        }
        assertThat(left).as("what each node's kernel lacks or holds too much of against periscope plan, after %s", CONVERGENCE)
                .allSatisfy((node, differences) -> assertThat(differences).as(node.host().toString()).isEmpty());
        // Whose work it is, as the API says: every gateway agent process holds its Lease and reports its
        // gateway active or passive; the route agents of the non-gateway nodes report the gateways they load-balance to.
        for (MemberCluster cluster : plane.clusters()) {
            List<io.periscope.model.topology.Node> gateways = cluster.model().nodes().stream().filter(io.periscope.model.topology.Node::gateway).toList();
            for (io.periscope.model.topology.Node gateway : gateways) {
                boolean active = cluster.model().multiActiveGateways() || gateways.getFirst() == gateway;
                String lease = LiveObjectsReader.gatewayLease(cluster.model().multiActiveGateways(), gateway.name());
                Eventually.check("the gateway agent of " + gateway.name() + " reports itself " + (active ? "active" : "passive"), () -> {
                    if (active) {
                        assertThat(KubernetesControlPlane.leaseHolder(cluster.client(), lease)).as("holder of %s", lease).isEqualTo(gateway.name());
                    }
                    Gateway object = cluster.client().resources(Gateway.class).inNamespace(KubernetesControlPlane.NAMESPACE).withName(gateway.name()).get();
                    assertThat(object).as("the Gateway object of %s", gateway.name()).isNotNull();
                    assertThat(object.getStatus().haStatus()).as("%s's haStatus", gateway.name())
                            .isEqualTo(active ? GatewayStatus.ACTIVE : GatewayStatus.PASSIVE);
                });
            }
            assertThat(plane.processes().orElseThrow().running()).as("the agent processes of %s", cluster.model().name())
                    .filteredOn(p -> p.name().startsWith(cluster.model().name() + "_"))
                    .allSatisfy(p -> assertThat(p.process().isAlive()).as("%s runs", p.name()).isTrue());
        }
    }

    private static void pings(KubernetesOnTheLab lab, String fromNamespace, String to) {
        CommandResult ping = lab.inNamespace(fromNamespace, "ping", "-c", "3", "-i", "0.2", "-W", "2", to);
        assertThat(ping.succeeded()).as("ping to %s:\n%s%s", to, ping.stdout(), ping.stderr()).isTrue();
    }

    /** The lab's probe: real connections, captured on every node, and their path compared hop by hop with the simulator's. */
    private static void probedAlongTheSimulatedPath(KubernetesOnTheLab lab, String flowName) {
        lab.awaitExportedNames();
        List<String> progress = new ArrayList<>();
        ProbeReport report = new LabProbe(ProcessCommandRunner.here(), lab.stateFile(), SimulatorFlows::new)
                .run(lab.file(), lab.set(), Optional.of(flowName), progress::add);
        FlowProbeResult flow = report.flows().getFirst();
        progress.forEach(line -> System.out.println("probe: " + line));
        assertThat(flow.matchesSimulation()).as("the probe of %s: %s\n%s", flowName, flow.firstDifference(), String.join("\n", progress))
                .isTrue();
    }

    /** Waits until no node differs from the plan or the time is up; returns what is left per node. */
    private static Map<HostNamespace, List<String>> untilConverged(KubernetesOnTheLab lab) throws InterruptedException {
        return new NodeConvergence<>(lab.layout().nodes(), lab::differences, Duration.ofMillis(500)).await(CONVERGENCE);
    }

    private static String pod(KubernetesOnTheLab lab, String cluster, String namespace, String name) {
        return lab.layout().requireHost(HostId.pod(cluster, namespace, name)).namespace();
    }

    /** A lab name of this JVM's own: it never meets a lab someone started by hand from the same file. */
    private static ClusterSet forThisRun(ClusterSet set) {
        return new ClusterSet("k8slab-" + set.name() + "-" + ProcessHandle.current().pid(), set.globalnet(), set.defaultCableDriver(), set.clusters(),
                set.connectivityPolicies(), set.connectionPolicies(), set.flows(), set.cables(), set.behaviour());
    }
}
