package io.periscope.lab.link;

import io.periscope.lab.netns.NetworkNamespaces;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The delay lines a lab runs at once, kept level with a list of {@link DelayLineSpec}s by
 * {@link #reconcile}: a line nobody wants any more is stopped, a wanted one that is missing is
 * started, and one whose delay or jitter changed (a {@code lab apply}) is retuned in place: the same
 * socket goes on serving its queue, so the change leaves no moment without a server (when nothing
 * serves a queue its packets are dropped). Lines are keyed by {@link DelayLineSpec#key}: a new queue
 * number or namespace is a new line.
 *
 * <p>A line that cannot start (its namespace does not exist yet, another socket serves the queue) is
 * reported with its error and tried again a second later; one that stopped by itself is replaced,
 * and one whose namespace was removed is stopped (its socket would keep the namespace alive). Each
 * change is logged once.
 */
public final class DelayLines implements AutoCloseable {

    /** How long after a failed start the same line is tried again. */
    static final Duration RETRY = Duration.ofSeconds(1);

    private record Failed(DelayLineSpec spec, String error, long at) {
    }

    private final Consumer<String> log;
    private final Map<String, DelayLine> running = new TreeMap<>();
    private final Map<String, Failed> failed = new TreeMap<>();
    private boolean closed;

    public DelayLines(Consumer<String> log) {
        this.log = log;
    }

    /**
     * Brings the running lines level with {@code wanted}.
     *
     * @throws IllegalArgumentException when two specs name the same queue of the same namespace with different delays
     *                                  (nothing is changed then)
     */
    public synchronized void reconcile(List<DelayLineSpec> wanted) {
        if (closed) {
            return;
        }
        Map<String, DelayLineSpec> byKey = new LinkedHashMap<>();
        for (DelayLineSpec spec : wanted) {
            DelayLineSpec before = byKey.put(spec.key(), spec);
            if (before != null && !before.equals(spec)) {
                throw new IllegalArgumentException("two delay lines for queue " + spec.queueNumber() + " of " + spec.namespace() + ": "
                        + describe(before) + " and " + describe(spec));
            }
        }
        long now = System.nanoTime();
        for (Iterator<Map.Entry<String, DelayLine>> it = running.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, DelayLine> entry = it.next();
            DelayLine line = entry.getValue();
            DelayLineSpec want = byKey.get(entry.getKey());
            if (want == null) {
                line.close();
                it.remove();
                log.accept("delay line " + entry.getKey() + ": stopped (no longer wanted)");
            } else if (!NetworkNamespaces.exists(want.namespace())) {
                line.close();
                it.remove();
                failed.put(entry.getKey(), new Failed(want, "network namespace " + want.namespace() + " is gone", now));
                log.accept("delay line " + entry.getKey() + ": stopped, its network namespace is gone");
            } else if (!line.running()) {
                String error = line.status().error();
                line.close();
                it.remove();
                failed.put(entry.getKey(), new Failed(want, "stopped by itself: " + error, now - RETRY.toNanos()));
                log.accept("delay line " + entry.getKey() + ": stopped by itself (" + error + "); starting it again");
            }
        }
        failed.keySet().retainAll(byKey.keySet());
        for (DelayLineSpec spec : byKey.values()) {
            DelayLine line = running.get(spec.key());
            if (line != null) {
                if (!line.spec().equals(spec)) {
                    log.accept("delay line " + spec.key() + ": " + describe(line.spec()) + " -> " + describe(spec) + " (in place)");
                    line.retune(spec);
                }
                continue;
            }
            Failed before = failed.get(spec.key());
            if (before != null && before.spec().equals(spec) && now - before.at() < RETRY.toNanos()) {
                continue;
            }
            try {
                running.put(spec.key(), DelayLine.start(spec));
                failed.remove(spec.key());
                log.accept("delay line " + spec.key() + ": holds each packet " + describe(spec));
            } catch (DelayLineException e) {
                if (before == null || !before.error().equals(e.getMessage())) {
                    log.accept("delay line " + spec.key() + ": cannot start, trying again every " + RETRY.toSeconds() + " s: " + e.getMessage());
                }
                failed.put(spec.key(), new Failed(spec, e.getMessage(), now));
            }
        }
    }

    /** Every wanted line's status by {@link DelayLineSpec#key}, running or not. */
    public synchronized Map<String, DelayLineStatus> status() {
        Map<String, DelayLineStatus> all = new TreeMap<>();
        running.forEach((key, line) -> all.put(key, line.status()));
        failed.forEach((key, f) -> all.put(key, DelayLineStatus.notRunning(f.spec(), f.error())));
        return all;
    }

    /** The lines that run now, by key (for tests and benchmarks that read one line's measurements). */
    public synchronized Map<String, DelayLine> running() {
        return Map.copyOf(running);
    }

    /** Stops every line; each has ended its threads when this returns. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        running.values().forEach(DelayLine::close);
        running.clear();
        failed.clear();
    }

    static String describe(DelayLineSpec spec) {
        return millis(spec.delay()) + (spec.jitter().isZero() ? "" : " +- " + millis(spec.jitter()));
    }

    private static String millis(Duration duration) {
        return java.math.BigDecimal.valueOf(duration.toNanos(), 6).stripTrailingZeros().toPlainString() + " ms";
    }
}
