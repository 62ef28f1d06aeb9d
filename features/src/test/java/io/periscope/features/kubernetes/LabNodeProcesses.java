package io.periscope.features.kubernetes;

import io.periscope.dataplane.election.LeaseTimings;
import io.periscope.features.kubernetes.AgentProcesses.AgentProcess;
import io.periscope.lab.layout.LabLayout;
import io.periscope.plan.HostId;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the kubernetes-on-lab backend runs the production agents: each one an operating-system
 * process ({@link AgentProcesses}) inside the lab namespace of the node it runs on, started as
 * {@code periscope-agent SUBCOMMAND} with what its manifest in {@code deploy/} gives it: the node
 * agents ({@code gateway}, {@code route-agent}) with {@code NODE_NAME} on their node, as the
 * DaemonSets with host networking; the Deployments' pods ({@code globalnet}, {@code broker-sync},
 * {@code dns}) on a node of their cluster, as the scheduler would place them, with {@code POD_NAME}.
 * Each programs its node's kernel with its own command runner, netlink watch and ICMP probes, and
 * reaches its API servers through the namespace's loopback ({@link ApiRelay}).
 *
 * <p>The flags give the lab's Lease timings ({@link LeaseTimings#LAB}: every agent on one machine)
 * and a resync of {@code resync}, in place of upstream's 15 s Leases and the manifests' 30 s.
 */
public final class LabNodeProcesses implements AutoCloseable {

    private final LabLayout layout;
    private final AgentProcesses processes;
    private final Duration resync;

    public LabNodeProcesses(LabLayout layout, Path directory, Duration resync) {
        this.layout = layout;
        this.processes = new AgentProcesses(directory);
        this.resync = resync;
    }

    /** The namespace the lab built for {@code cluster/node}. */
    public String namespace(String cluster, String node) {
        return layout.requireHost(HostId.node(cluster, node)).namespace();
    }

    /**
     * Starts {@code subcommand} of {@code periscope-agent} on {@code cluster/node}.
     *
     * @param apiServers its cluster's API server first, then any other it reaches (the broker)
     * @param flags      the subcommand's own flags, {@code {kubeconfig:PORT}} for another API server's kubeconfig
     * @param podName    the replica's name for a Deployment's pod ({@code POD_NAME}), or null for a node agent
     */
    AgentProcess start(String cluster, String node, String subcommand, List<MockApiServer> apiServers, List<String> flags, String podName) {
        List<String> args = new ArrayList<>(List.of(subcommand, "--resync", resync.toString(),
                "--lease-duration", LeaseTimings.LAB.leaseDuration().toString(),
                "--renew-deadline", LeaseTimings.LAB.renewDeadline().toString(),
                "--retry-period", LeaseTimings.LAB.retryPeriod().toString()));
        args.addAll(flags);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CLUSTER_ID", cluster);
        env.put("POD_NAMESPACE", KubernetesControlPlane.NAMESPACE);
        env.put("NODE_NAME", node);
        if (podName != null) {
            env.put("POD_NAME", podName);
        }
        String name = cluster + "_" + (podName != null ? podName : subcommand + "-" + node);
        return processes.start(name, namespace(cluster, node), apiServers, args, env);
    }

    /** Stops one agent, as its pod is deleted. */
    void stop(AgentProcess agent) {
        processes.stop(agent);
    }

    /** The relays' traffic and the agents that ended, for a failure message. */
    public String describe() {
        return processes.describe();
    }

    /** Every agent running, in the order they started. */
    public List<AgentProcess> running() {
        return processes.processes();
    }

    @Override
    public void close() {
        processes.close();
    }
}
