package io.periscope.simulator.reachability;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A matrix's progress as a test reads it: the total it was told, and every count it was told since, in order. */
final class RecordedProgress implements MatrixProgress {

    private volatile long total = -1;
    private final List<Long> reported = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void start(long cells) {
        total = cells;
    }

    @Override
    public void advance(long cellsDone) {
        reported.add(cellsDone);
    }

    long total() {
        return total;
    }

    List<Long> reported() {
        return List.copyOf(reported);
    }
}
