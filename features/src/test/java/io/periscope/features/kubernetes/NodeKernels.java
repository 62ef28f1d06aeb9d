package io.periscope.features.kubernetes;

import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.health.GatewayHealth;
import io.periscope.dataplane.health.Prober;
import io.periscope.dataplane.watch.KernelWatch;

import java.util.function.Supplier;

/**
 * Where a control plane's node agents program: each node's kernel, as the command runner and kernel
 * watch its agents are constructed with (as {@code periscope-agent gateway} and {@code route-agent}
 * construct them with the host's), for agents that run in this JVM: recorded kernels
 * ({@link RecordedKernels}) for the simulator's scenarios. On the lab the agents run as processes
 * with their node's own kernel ({@link LabNodeProcesses}).
 */
public interface NodeKernels extends AutoCloseable {

    /** The runner of every program the agents of {@code cluster/node} run on their node. */
    CommandRunner runner(String cluster, String node);

    /** A watch of the node's kernel for one agent's reconciler (each drains its own notifications). */
    default KernelWatch watch(String cluster, String node) {
        return KernelWatch.NONE;
    }

    /**
     * How the agents of {@code cluster/node} probe the gateways they send to: off by default (a
     * recorded kernel has no packets to answer); a real kernel's agents ping from the node's namespace,
     * as {@code periscope-agent} does from its host.
     */
    default Supplier<Prober> probers(String cluster, String node) {
        return GatewayHealth.OFF;
    }

    /**
     * Whether every node also runs a route agent, as the route agent's DaemonSet does. The scenarios
     * check the gateways' recorded programs only; on real namespaces the workers need theirs.
     */
    boolean routeAgents();

    /** Ends whatever the kernels keep open (threads inside namespaces, watches); nothing by default. */
    @Override
    default void close() {
    }
}
