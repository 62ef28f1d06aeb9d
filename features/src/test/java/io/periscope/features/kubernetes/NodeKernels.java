package io.periscope.features.kubernetes;

import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.watch.KernelWatch;

/**
 * Where a control plane's node agents program: each node's kernel, as the command runner and kernel
 * watch its agents are constructed with (as {@code periscope-agent gateway} and {@code route-agent}
 * construct them with the host's). Recorded kernels ({@link RecordedKernels}) for the scenarios, real
 * network namespaces of the lab ({@link LabNodeKernels}) for the agents proven on a kernel.
 */
public interface NodeKernels extends AutoCloseable {

    /** The runner of every program the agents of {@code cluster/node} run on their node. */
    CommandRunner runner(String cluster, String node);

    /** A watch of the node's kernel for one agent's reconciler (each drains its own notifications). */
    default KernelWatch watch(String cluster, String node) {
        return KernelWatch.NONE;
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
