package io.periscope.simulator.engine;

import io.periscope.simulator.trace.Step;

import java.util.Arrays;
import java.util.List;

/**
 * The steps of the hop being built, owned by one branch: a fork copies them (a hop has a handful), so
 * recording a step is an array store instead of a node of a shared list.
 */
final class HopSteps {

    /** A gateway's hop, with a VXLAN packet's handling in it, has about fifteen. */
    private static final int CAPACITY = 16;

    private Step[] items = new Step[CAPACITY];
    private int size;

    void add(Step step) {
        if (size == items.length) {
            grow();
        }
        items[size++] = step;
    }

    private void grow() {
        items = Arrays.copyOf(items, size * 2);
    }

    /** The last step, or null when there is none. */
    Step last() {
        return size == 0 ? null : items[size - 1];
    }

    /** Forgets the steps, for the next hop: the finished hop took its own copy. */
    void clear() {
        Arrays.fill(items, 0, size, null);
        size = 0;
    }

    HopSteps copy() {
        HopSteps copy = new HopSteps();
        copy.items = Arrays.copyOf(items, Math.max(CAPACITY, size));
        copy.size = size;
        return copy;
    }

    /** The steps as an unmodifiable list of their own. */
    List<Step> toList() {
        return switch (size) {
            case 0 -> List.of();
            case 1 -> List.of(items[0]);
            case 2 -> List.of(items[0], items[1]);
            default -> List.of(Arrays.copyOf(items, size));
        };
    }
}
