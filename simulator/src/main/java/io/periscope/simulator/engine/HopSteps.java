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

    /**
     * The steps as an unmodifiable list of their own. Up to ten by List.of's fixed arities, which
     * keep the array they are given: List.of of an array copies it, which with the copy of the
     * items was two arrays per hop.
     */
    List<Step> toList() {
        Step[] s = items;
        return switch (size) {
            case 0 -> List.of();
            case 1 -> List.of(s[0]);
            case 2 -> List.of(s[0], s[1]);
            case 3 -> List.of(s[0], s[1], s[2]);
            case 4 -> List.of(s[0], s[1], s[2], s[3]);
            case 5 -> List.of(s[0], s[1], s[2], s[3], s[4]);
            case 6 -> List.of(s[0], s[1], s[2], s[3], s[4], s[5]);
            case 7 -> List.of(s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
            case 8 -> List.of(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
            case 9 -> List.of(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]);
            case 10 -> List.of(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9]);
            default -> List.of(Arrays.copyOf(s, size));
        };
    }
}
