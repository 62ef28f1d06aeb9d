package io.periscope.lab.probe;

import io.periscope.lab.trace.PathMatch;
import io.periscope.lab.trace.TracePath;

import java.util.List;

/** One probe connection: what the socket saw, the hops its packets took, and how they compare with the simulation. */
public record ObservedAttempt(AttemptOutcome outcome, TracePath observed, List<TracePath> simulated, PathMatch match) {

    public ObservedAttempt {
        simulated = List.copyOf(simulated);
    }
}
