package io.periscope.simulator;

/**
 * How a flow's paths end, counted: {@code delivered} of {@code paths} got there and their answer back
 * (see {@link Simulator#count}).
 */
public record PathCount(int delivered, int paths) {

    public PathCount {
        if (delivered < 0 || delivered > paths) {
            throw new IllegalArgumentException(delivered + " delivered of " + paths + " paths");
        }
    }
}
