package io.periscope.simulator.trace;

import java.util.List;

/**
 * Everything the simulator found for one flow: how it was named ({@code from}, {@code to} as the
 * user wrote them), the address and port it resolved to, and every path.
 */
public record FlowTrace(String name, String from, String to, String resolved, List<PathTrace> paths) {

    public FlowTrace {
        paths = List.copyOf(paths);
    }
}
