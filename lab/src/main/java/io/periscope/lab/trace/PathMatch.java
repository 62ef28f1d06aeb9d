package io.periscope.lab.trace;

import java.util.Optional;

/**
 * How an observed path compares with the simulation: the simulated path it was compared with
 * (0-based; the one taking the same hops where there is one) and the first difference, if any.
 */
public record PathMatch(int simulatedPath, Optional<HopDifference> firstDifference) {

    public boolean matches() {
        return simulatedPath >= 0 && firstDifference.isEmpty();
    }
}
