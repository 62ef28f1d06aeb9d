package io.periscope.simulator.engine;

import java.util.List;

/**
 * A persistent list that grows at its end: each branch of a fork appends to the shared history it
 * came from without copying it.
 */
final class Trail<T> {

    private static final Trail<Object> EMPTY = new Trail<>(null, null, 0);

    private final T last;
    private final Trail<T> before;
    private final int size;

    private Trail(T last, Trail<T> before, int size) {
        this.last = last;
        this.before = before;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    static <T> Trail<T> empty() {
        return (Trail<T>) EMPTY;
    }

    Trail<T> add(T item) {
        return new Trail<>(item, this, size + 1);
    }

    Trail<T> addAll(List<T> items) {
        Trail<T> t = this;
        for (T item : items) {
            t = t.add(item);
        }
        return t;
    }

    int size() {
        return size;
    }

    /** The items, oldest first, as an unmodifiable list (which records take over without copying). */
    @SuppressWarnings("unchecked")
    List<T> toList() {
        // The short ones (a hop's conntrack layers, most often) without an array between: List.of
        // of an array copies it.
        switch (size) {
            case 0 -> {
                return List.of();
            }
            case 1 -> {
                return List.of(last);
            }
            case 2 -> {
                return List.of(before.last, last);
            }
            case 3 -> {
                return List.of(before.before.last, before.last, last);
            }
            default -> {
                // below
            }
        }
        Object[] items = new Object[size];
        int i = size;
        for (Trail<T> t = this; t.size > 0; t = t.before) {
            items[--i] = t.last;
        }
        return (List<T>) List.of(items);
    }
}
