package io.periscope.lab.trace;

import java.util.List;

/** A flow of the trace JSON: its name, source, target as written, the address it resolved to, and its paths. */
public record TraceFlow(String name, String from, String to, String resolved, List<TracePath> paths) {

    public TraceFlow {
        paths = List.copyOf(paths);
    }
}
