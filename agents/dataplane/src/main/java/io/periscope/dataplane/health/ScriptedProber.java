package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A prober for tests: every target answers unless the test has silenced it, and a round takes no time
 * beyond a short pause (so a checker's loop does not spin). The recording counterpart of {@link IcmpEchoProber}.
 */
public final class ScriptedProber implements Prober {

    private final Set<Ipv4Address> silent = ConcurrentHashMap.newKeySet();
    private final AtomicLong rounds = new AtomicLong();

    /** The gateway at {@code address} stops answering, as if it had died. */
    public ScriptedProber silence(Ipv4Address address) {
        silent.add(address);
        return this;
    }

    /** The gateway at {@code address} answers again. */
    public ScriptedProber answer(Ipv4Address address) {
        silent.remove(address);
        return this;
    }

    public long rounds() {
        return rounds.get();
    }

    @Override
    public Set<Ipv4Address> round(Collection<Ipv4Address> targets, Duration timeout) {
        rounds.incrementAndGet();
        Set<Ipv4Address> answered = new HashSet<>(targets);
        answered.removeAll(silent);
        if (!answered.containsAll(targets)) {
            // A lost probe is waited for until the timeout, as the real one is.
            pause(timeout);
        } else {
            pause(Duration.ofMillis(Math.min(5, timeout.toMillis())));
        }
        return answered;
    }

    @Override
    public void close() {
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
