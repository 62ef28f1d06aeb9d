package io.periscope.features.kubernetes;

import io.periscope.dataplane.command.CommandRunner;
import io.periscope.features.backend.CableSecrecy;
import io.periscope.features.backend.Deployment;
import io.periscope.features.backend.Evidence;
import io.periscope.features.backend.EvidenceLog;
import io.periscope.features.backend.GatewayFailover;
import io.periscope.features.backend.RoundTrips;
import io.periscope.features.backend.Throughput;
import io.periscope.features.kubernetes.KubernetesControlPlane.MemberCluster;
import io.periscope.features.lab.ProbedDeployment;
import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GatewayConnection;
import io.periscope.kubernetes.crd.RouteAgentResource;
import io.periscope.kubernetes.crd.RouteAgentStatus;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.lab.failover.FailoverReport;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailover;
import io.periscope.lab.failover.UpLab;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cluster set on the kubernetes-on-lab backend: the lab's namespaces, programmed by the production
 * Kubernetes agents. What happens in the kernel and on the wire is read as in the lab
 * ({@link ProbedDeployment}: real probes, the kernel's counters and state, real DNS from the pods'
 * namespaces, here answered by the production DNS agent). What the lab takes from the plan, this
 * backend reads from the API objects the agents wrote: the Endpoints from the broker, the Globalnet
 * allocations from the objects' status. A gateway failure is the lab's blackhole of the gateway's
 * namespace, found and handled by the agents' own health checks (in their own processes), timed
 * from the failure to the first down verdict an agent reported in the API.
 */
final class KubernetesDeployment implements Deployment {

    private final KubernetesOnTheLab lab;
    private final KubernetesControlPlane plane;
    private final CommandRunner runner;
    private final ProbedDeployment probed;
    /** What a failover measured, for the scenario's log ({@link KubernetesLab#takeNotes}). */
    private final List<String> notes = new java.util.concurrent.CopyOnWriteArrayList<>();

    KubernetesDeployment(KubernetesOnTheLab lab, KubernetesControlPlane plane, CommandRunner runner) {
        this.lab = lab;
        this.plane = plane;
        this.runner = runner;
        this.probed = new ProbedDeployment(lab.set(), runner, lab.stateFile(), lab.file());
    }

    @Override
    public Optional<KubernetesControlPlane> controlPlane() {
        return Optional.of(plane);
    }

    @Override
    public ClusterSet clusterSet() {
        return lab.set();
    }

    @Override
    public FlowTrace trace(Flow flow) throws FlowResolutionException {
        return probed.trace(flow);
    }

    @Override
    public CableSecrecy secrecy(List<PathTrace> followed) {
        return probed.secrecy(followed);
    }

    @Override
    public Ipv4Address resolve(FlowSource from, String dnsName) throws FlowResolutionException {
        return probed.resolve(from, dnsName);
    }

    @Override
    public Optional<List<String>> askDns(FlowSource from, String name, String type) {
        return probed.askDns(from, name, type);
    }

    @Override
    public DataplanePlan programmed(HostId host) {
        return probed.programmed(host);
    }

    @Override
    public void addForeignRule(HostId host, Table table, String chain, String rule) {
        probed.addForeignRule(host, table, chain, rule);
    }

    @Override
    public boolean keepsForeignRule(HostId host, DataplanePlan before, Table table, String chain, String rule) {
        return probed.keepsForeignRule(host, before, table, chain, rule);
    }

    @Override
    public List<Interface> interfaces(HostId host) {
        return probed.interfaces(host);
    }

    @Override
    public List<io.periscope.plan.ovn.OvsBridge> ovsBridges(HostId node) {
        return probed.ovsBridges(node);
    }

    @Override
    public Optional<OvnTopology> ovnTopology(String cluster) {
        return probed.ovnTopology(cluster);
    }

    /** The cable drivers as the policies choose them; the agents' choices show in the tunnels the kernel holds, which other steps read. */
    @Override
    public List<ClusterGraph.Connection> connections() {
        return probed.connections();
    }

    /** The Endpoint objects the active gateways' agents published, as the broker holds them. */
    @Override
    public List<Endpoint> endpoints() {
        EvidenceLog.record(Evidence.API_OBJECTS);
        List<Endpoint> endpoints = new ArrayList<>();
        for (SubmarinerEndpoint object : plane.broker().resources(SubmarinerEndpoint.class)
                .inNamespace(KubernetesControlPlane.BROKER_NAMESPACE).list().getItems()) {
            endpoints.add(model(object.getSpec()));
        }
        return endpoints;
    }

    private static Endpoint model(EndpointSpec spec) {
        Ipv4Address privateIp = Ipv4Address.parse(spec.privateIp());
        Optional<Ipv4Address> publicIp = Optional.ofNullable(spec.publicIp()).map(Ipv4Address::parse).filter(ip -> !ip.equals(privateIp));
        CableDriver driver = CableDriver.parse(spec.backend()).orElseThrow(() -> new AssertionError("the Endpoint of " + spec.clusterId()
                + "/" + spec.hostname() + " names an unknown cable driver '" + spec.backend() + "'"));
        return new Endpoint(spec.clusterId(), spec.hostname(), privateIp, publicIp, spec.subnets().stream().map(Ipv4Prefix::parse).toList(),
                driver, spec.backendConfig(), spec.allocatedIPs().stream().map(Ipv4Address::parse).toList(),
                Optional.ofNullable(spec.healthCheckIP()).map(Ipv4Address::parse));
    }

    /**
     * Every cluster's global IPs as its API server holds them ({@link ApiAllocations}): the global
     * CIDR of its Cluster object, what each Globalnet object (and the first design's annotated
     * services, pods and nodes) holds with its status, and the free count as what no object holds.
     * The plan only names the objects to look for.
     */
    @Override
    public GlobalnetAllocations allocations() {
        EvidenceLog.record(Evidence.API_OBJECTS);
        return lab.apiAllocations();
    }

    /**
     * {@code lab failover} with a blackhole of the gateway's namespace, the agents' health checks
     * doing the rest: while the streams run, what the agents report of their peers in the API is
     * polled, so that the report says how long after the failure the first agent found the gateway
     * dead, and how long the longest stream of the failed gateway went without packets.
     */
    @Override
    public GatewayFailover failover(Flow udp, int streams, Flow tcpFlow, int tcp, String node) {
        EvidenceLog.record(Evidence.REAL_PACKETS);
        ClusterSet measured = lab.set().withFlows(List.of(new Flow("failover-udp", udp.from(), udp.to(), udp.protocol(), udp.expect()),
                new Flow("failover-tcp", tcpFlow.from(), tcpFlow.to(), tcpFlow.protocol(), tcpFlow.expect())));
        UpLab up = UpLab.of(lab.file(), measured, lab.stateFile(), "acceptance");
        AtomicLong failedAt = new AtomicLong();
        AtomicLong detectedAt = new AtomicLong();
        Thread watcher = Thread.ofPlatform().daemon().name("failover-watch").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                long failed = failedAt.get();
                if (failed != 0 && detectedAt.get() == 0) {
                    foundDown(node, failed).ifPresent(at -> detectedAt.compareAndSet(0, at));
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        FailoverReport report;
        try {
            report = new LabFailover(runner, new SimulatorFailover()).runWithOtherAgents(up,
                    new LabFailover.Options(node, FailureMode.BLACKHOLE, streams, GatewayFailover.RATE, tcp, Optional.of(GatewayFailover.FAILED_FOR)),
                    line -> {
                        // The line before the failure: 'fail: ' comes once it is in place, under load after the verdicts.
                        if (line.startsWith(LabFailover.FAILING_NOW)) {
                            failedAt.compareAndSet(0, System.currentTimeMillis());
                        }
                    });
        } finally {
            watcher.interrupt();
        }
        if (detectedAt.get() == 0) {
            throw new AssertionError("no agent reported " + node + " down in the API (RouteAgent and Gateway status) while the lab blackholed it for "
                    + GatewayFailover.FAILED_FOR.toMillis() + " ms");
        }
        double gap = report.streams().stream().filter(s -> s.crossedFailed(node)).mapToDouble(FailoverReport.StreamResult::failureWindowMillis)
                .max().orElse(0);
        String measuredTimes = node + " blackholed: the agents' health checks found it down " + (detectedAt.get() - failedAt.get())
                + " ms after the failure (the earliest down verdict in the API's RouteAgent and Gateway status); its streams went at most " + Math.round(gap) + " ms without packets before they resumed through "
                + "the other gateways";
        notes.add(measuredTimes);
        System.out.println("[kubernetes-on-lab] " + measuredTimes);
        return GatewayFailover.measured(node, report);
    }

    /**
     * When an agent first declared {@code node} ({@code cluster/node}) down at or after
     * {@code sinceMillis}, as the agents report it in the API: a route agent in its RouteAgent's
     * status, a remote gateway agent in its Gateway's connections; each verdict carries the time the
     * agent's health checker reached it, so the poll's own pace does not count.
     */
    private Optional<Long> foundDown(String node, long sinceMillis) {
        Optional<Long> earliest = Optional.empty();
        for (MemberCluster cluster : plane.clusters()) {
            try {
                for (RouteAgentResource agent : cluster.client().resources(RouteAgentResource.class).inNamespace(KubernetesControlPlane.NAMESPACE)
                        .list().getItems()) {
                    if (agent.getStatus() == null) {
                        continue;
                    }
                    for (RouteAgentStatus.GatewayHealthStatus gateway : agent.getStatus().gateways()) {
                        if (node.equals(gateway.gateway()) && RouteAgentStatus.GatewayHealthStatus.DOWN.equals(gateway.status())) {
                            earliest = earlier(earliest, gateway.lastTransitionTime(), sinceMillis);
                        }
                    }
                }
                for (Gateway gateway : cluster.client().resources(Gateway.class).inNamespace(KubernetesControlPlane.NAMESPACE).list().getItems()) {
                    if (gateway.getStatus() == null) {
                        continue;
                    }
                    for (GatewayConnection connection : gateway.getStatus().connections()) {
                        EndpointSpec remote = connection.endpoint();
                        if (remote != null && node.equals(remote.clusterId() + "/" + remote.hostname())
                                && GatewayConnection.ERROR.equals(connection.status())) {
                            earliest = earlier(earliest, connection.lastTransitionTime(), sinceMillis);
                        }
                    }
                }
            } catch (RuntimeException e) {
                // The API answers again at the next poll.
            }
        }
        return earliest;
    }

    private static Optional<Long> earlier(Optional<Long> earliest, String transition, long sinceMillis) {
        if (transition == null) {
            return earliest;
        }
        long at = java.time.Instant.parse(transition).toEpochMilli();
        if (at < sinceMillis) {
            return earliest;
        }
        return Optional.of(earliest.map(e -> Math.min(e, at)).orElse(at));
    }

    /** What the failovers since the last call measured. */
    List<String> takeNotes() {
        List<String> taken = List.copyOf(notes);
        notes.removeAll(taken);
        return taken;
    }

    @Override
    public RoundTrips pings(Flow flow, int count) {
        return probed.pings(flow, count);
    }

    @Override
    public Throughput connections(Flow flow, int connections, int seconds) {
        return probed.connections(flow, connections, seconds);
    }

    @Override
    public int burst(Flow flow, int count, int size) {
        return probed.burst(flow, count, size);
    }
}
