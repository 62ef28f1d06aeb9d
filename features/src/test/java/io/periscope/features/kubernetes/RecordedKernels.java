package io.periscope.features.kubernetes;

import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.RecordingCommandRunner;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scenarios' node kernels: every program the agents run is recorded, none reaches a kernel. Each
 * node starts without Periscope's state (the readers' JSON answers are empty lists), and the gateway
 * agents alone run, as what the scenarios compare is what a gateway programmed.
 */
public final class RecordedKernels implements NodeKernels {

    private final Map<String, RecordingCommandRunner> kernels = new ConcurrentHashMap<>();

    @Override
    public RecordingCommandRunner runner(String cluster, String node) {
        return kernels.computeIfAbsent(cluster + "/" + node, name -> new RecordingCommandRunner()
                .answer(c -> c.argv().contains("-j"), c -> CommandResult.success("[]")));
    }

    /** What the agents of {@code cluster/node} ran, when they ran anything. */
    public Optional<RecordingCommandRunner> recorded(String cluster, String node) {
        return Optional.ofNullable(kernels.get(cluster + "/" + node));
    }

    @Override
    public boolean routeAgents() {
        return false;
    }
}
