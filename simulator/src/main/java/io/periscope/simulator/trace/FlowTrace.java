package io.periscope.simulator.trace;

import io.periscope.model.topology.Disposition;

import java.util.List;

/**
 * Everything the simulator found for one flow: how it was named ({@code from}, {@code to} as the
 * user wrote them), the address and port it resolved to, and every path.
 */
public record FlowTrace(String name, String from, String to, String resolved, List<PathTrace> paths) {

    /** {@code resolved} of a flow whose DNS name got no answer: nothing was sent. */
    public static final String NO_ADDRESS = "no address";

    public FlowTrace {
        paths = List.copyOf(paths);
    }

    /**
     * Whether every path ends as {@code expected}. A flow whose name got no answer sent nothing, so it
     * ends both {@code unreachable} and {@code no-route}: docs/topology.md gives either as the expected
     * answer for a service nobody exports.
     */
    public boolean endsAs(Disposition expected) {
        if (NO_ADDRESS.equals(resolved)) {
            return expected == Disposition.UNREACHABLE || expected == Disposition.NO_ROUTE;
        }
        return !paths.isEmpty() && paths.stream().allMatch(p -> p.disposition() == expected);
    }
}
