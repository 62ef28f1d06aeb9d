package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.periscope.dataplane.election.LeaseCandidate;
import io.periscope.dataplane.election.LeaseTimings;
import io.periscope.kubernetes.leaderelection.LeaseElection;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * What every Kubernetes controller of Periscope runs on: its informers, its level loop and its
 * lease, if it has one, owned in one place. Informer events only wake the loop ({@link LevelLoop}:
 * one platform thread, events coalesced, a pass at least every resync, a pass that throws retried
 * after the retry delay); each pass takes a {@link Snapshot} of the caches, asks the
 * {@link Controller} for its {@link Pass}, and has the {@link StatusWriter} carry out its writes.
 *
 * <p>A lease is used one of two ways. {@link Builder#build} stands for it for the runtime's whole
 * life, and passes run either way and read {@link Snapshot#leading()} (a gateway agent writes its
 * Gateway's {@code passive} status while it waits, a standby syncer says it is standing by).
 * {@link Builder#buildPerTerm} runs passes only while leading: each leadership term opens its own
 * informers and loop with a fresh controller (the Globalnet controller's allocation book lives for
 * one term), and closes them when the term ends.
 *
 * <p>Closing stops the passes first (nothing is written after), lets the controller close what its
 * passes used, releases the lease (a standby takes over within a retry period), closes the
 * informers, and last carries out the controller's {@link Controller#closing} writes.
 */
public final class ControllerRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerRuntime.class);
    /**
     * How long a pass waits for the caches to show the last passes' writes (their watch events take
     * milliseconds); past it, the pass runs on what the caches hold.
     */
    private static final Duration OWN_WRITES_PATIENCE = Duration.ofSeconds(5);

    private final String name;
    private final KubernetesClient local;
    private final Optional<KubernetesClient> broker;
    private final StatusWriter writer;
    private final Optional<LiveObjectsSource> liveObjects;
    private final List<Watch<?>> watches;
    private final Duration resync;
    private final Duration retry;
    private final Optional<LeaseElection> election;
    /** Present for {@link Builder#buildPerTerm}: one controller per leadership term. */
    private final Optional<Supplier<? extends Controller>> perTerm;
    private final AtomicBoolean comeBackPending = new AtomicBoolean();
    /** The only term, or (per term) the current one while leading. */
    private Term term;
    private ScheduledExecutorService later;
    private boolean closed;

    private record LiveObjectsSource(String namespace, String clusterId) {
    }

    private record LeaseSource(String namespace, String leaseName, String identity, LeaseTimings timings) {
    }

    private ControllerRuntime(Builder builder, Optional<Controller> single, Optional<Supplier<? extends Controller>> perTerm) {
        this.name = builder.name;
        this.local = builder.local;
        this.broker = builder.broker;
        this.writer = new StatusWriter(local, broker);
        this.liveObjects = builder.liveObjects;
        this.watches = List.copyOf(builder.watches);
        this.resync = builder.resync;
        this.retry = builder.retry;
        this.perTerm = perTerm;
        LeaseCandidate.Leadership leadership = perTerm.isPresent() ? new LeaseCandidate.Leadership() {
            @Override
            public void started() {
                startTerm();
            }

            @Override
            public void stopped() {
                stopTerm();
            }
        } : LeaseCandidate.Leadership.signalling(this::signal);
        this.election = builder.lease.map(l -> new LeaseElection(local, l.namespace(), l.leaseName(), l.identity(), l.timings(), leadership));
        this.term = single.map(Term::new).orElse(null);
    }

    /**
     * @param name  names the loop's thread and every log line
     * @param local this cluster's API
     */
    public static Builder builder(String name, KubernetesClient local) {
        return new Builder(name, local);
    }

    public static final class Builder {
        private final String name;
        private final KubernetesClient local;
        private Optional<KubernetesClient> broker = Optional.empty();
        private Optional<LiveObjectsSource> liveObjects = Optional.empty();
        private final List<Watch<?>> watches = new ArrayList<>();
        private Duration resync = Duration.ofSeconds(30);
        private Duration retry = Duration.ofSeconds(2);
        private Optional<LeaseSource> lease = Optional.empty();

        private Builder(String name, KubernetesClient local) {
            this.name = Objects.requireNonNull(name);
            this.local = Objects.requireNonNull(local);
        }

        /** The broker's API, for {@link Api#BROKER} watches and writes. */
        public Builder broker(KubernetesClient broker) {
            this.broker = Optional.of(broker);
            return this;
        }

        /** Informers for everything {@link LiveObjects} holds, on this cluster's API: {@link Snapshot#live()}. */
        public Builder liveObjects(String submarinerNamespace, String clusterId) {
            this.liveObjects = Optional.of(new LiveObjectsSource(submarinerNamespace, clusterId));
            return this;
        }

        /** One more informer: {@link Snapshot#list(Watch)}. */
        public Builder watch(Watch<?> watch) {
            watches.add(watch);
            return this;
        }

        /** How often a pass runs when nothing changed. */
        public Builder resync(Duration resync) {
            this.resync = resync;
            return this;
        }

        /** How soon a pass runs again after one threw (or asked to {@link Pass#comeBackSoon() come back soon}). */
        public Builder retry(Duration retry) {
            this.retry = retry;
            return this;
        }

        /** Stands for the Lease {@code namespace/leaseName} as {@code identity} (the project's election, over the Lease object). */
        public Builder lease(String namespace, String leaseName, String identity, LeaseTimings timings) {
            this.lease = Optional.of(new LeaseSource(namespace, leaseName, identity, timings));
            return this;
        }

        /** Runs {@code controller} for the runtime's life; with a lease, its passes run whether leading or not. */
        public ControllerRuntime build(Controller controller) {
            return new ControllerRuntime(this, Optional.of(controller), Optional.empty());
        }

        /** Runs a fresh controller per leadership term, only while leading; needs a {@link #lease}. */
        public ControllerRuntime buildPerTerm(Supplier<? extends Controller> controllers) {
            if (lease.isEmpty()) {
                throw new IllegalStateException(name + ": a controller per leadership term needs a lease");
            }
            return new ControllerRuntime(this, Optional.empty(), Optional.of(controllers));
        }
    }

    /**
     * Starts the informers and returns once their caches hold the initial lists, without starting
     * the passes: for a controller that must build something from the first snapshot before it
     * serves (the DNS server binds its port only once it has a zone). {@link #start()} opens them
     * itself otherwise.
     */
    public ControllerRuntime open() {
        single().open();
        return this;
    }

    /** Opens the informers (unless {@link #open() open}), starts the passes, then stands for the lease. */
    public ControllerRuntime start() {
        if (perTerm.isEmpty()) {
            Term only = single();
            only.open();
            only.loop.start();
        }
        election.ifPresent(LeaseElection::start);
        return this;
    }

    /** The caches now; only between {@link #open()} and {@link #close()} of a runtime without terms. */
    public Snapshot snapshot() {
        return single().snapshot();
    }

    /** Wakes the loop: something a pass reads changed that is no informer event (a health verdict, the lease). */
    public synchronized void signal() {
        if (term != null) {
            term.loop.signal();
        }
    }

    /** Passes completed without throwing (per term: in the current term, 0 when not leading); for tests that wait for a controller to settle. */
    public synchronized long passes() {
        return term == null ? 0 : term.loop.passes();
    }

    /** Whether this replica holds the lease; {@code true} without one. */
    public boolean leading() {
        return election.map(LeaseElection::leading).orElse(true);
    }

    /** The lease's holder as last observed. */
    public Optional<String> leader() {
        return election.flatMap(LeaseElection::leader);
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        if (perTerm.isPresent()) {
            stopTerm();
            shutDownLater();
            election.ifPresent(LeaseElection::close);
            return;
        }
        Term only = single();
        only.stop();
        shutDownLater();
        election.ifPresent(LeaseElection::close);
        only.release();
    }

    private synchronized Term single() {
        if (perTerm.isPresent()) {
            throw new IllegalStateException(name + " runs a controller per leadership term");
        }
        return term;
    }

    private synchronized void startTerm() {
        if (term == null && !closed) {
            // The informers' initial lists take a while; the elector's thread must not wait for them.
            Term starting = new Term(perTerm.orElseThrow().get());
            term = starting;
            Thread.ofPlatform().daemon().name(name + "-term-start").start(() -> openTerm(starting));
        }
    }

    private void openTerm(Term starting) {
        try {
            if (starting.open()) {
                starting.loop.start();
            }
        } catch (RuntimeException e) {
            LOG.error("{}: cannot watch the cluster: {}", name, e.toString(), e);
            stopTerm();
            // Stand down so another replica (or this one, later) can try again.
            election.ifPresent(LeaseElection::close);
        }
    }

    private void stopTerm() {
        Term ending;
        synchronized (this) {
            ending = term;
            term = null;
        }
        if (ending != null) {
            ending.stop();
            ending.release();
        }
    }

    /** One pass more after the retry delay, for a pass that waits on something no informer reports; one such wait at a time. */
    private void comeBackSoon() {
        if (!comeBackPending.compareAndSet(false, true)) {
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            if (later == null) {
                later = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().name(name + "-retry").unstarted(r));
            }
            later.schedule(() -> {
                comeBackPending.set(false);
                signal();
            }, retry.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void shutDownLater() {
        ScheduledExecutorService scheduled;
        synchronized (this) {
            scheduled = later;
            later = null;
        }
        if (scheduled != null) {
            scheduled.shutdownNow();
        }
    }

    private static String reason(KubernetesClientException e) {
        return e.getCode() == 0 ? e.getMessage() : "HTTP " + e.getCode();
    }

    /** A controller with its informers and its loop: the runtime's life, or one leadership term. */
    private final class Term {
        private final Controller controller;
        private final LevelLoop loop;
        private LiveObjectsInformers live;
        private final Map<Watch<?>, SharedIndexInformer<? extends HasMetadata>> caches = new LinkedHashMap<>();
        private boolean opened;
        private boolean ended;
        /** Made on the first pass, once the informers are open. */
        private UnseenWrites unseen;

        Term(Controller controller) {
            this.controller = controller;
            this.loop = new LevelLoop(name, this::pass, resync, retry);
        }

        /**
         * Starts the informers (once) and returns when their caches hold the initial lists; false when
         * the term ended meanwhile, its informers closed again. One that fails closes those started before.
         */
        boolean open() {
            synchronized (this) {
                if (opened || ended) {
                    return !ended;
                }
            }
            LiveObjectsInformers objects = null;
            Map<Watch<?>, SharedIndexInformer<? extends HasMetadata>> started = new LinkedHashMap<>();
            try {
                if (liveObjects.isPresent()) {
                    objects = new LiveObjectsInformers(local, liveObjects.get().namespace(), liveObjects.get().clusterId(), loop::signal);
                }
                for (Watch<?> watch : watches) {
                    started.put(watch, inform(watch));
                }
            } catch (RuntimeException e) {
                close(objects, started);
                throw e;
            }
            synchronized (this) {
                if (ended) {
                    close(objects, started);
                    return false;
                }
                live = objects;
                caches.putAll(started);
                opened = true;
                return true;
            }
        }

        private <T extends HasMetadata> SharedIndexInformer<T> inform(Watch<T> watch) {
            KubernetesClient client = watch.api() == Api.LOCAL ? local
                    : broker.orElseThrow(() -> new IllegalStateException(name + ": a broker watch without a broker API"));
            var resources = client.resources(watch.kind());
            return watch.namespace().isPresent() ? resources.inNamespace(watch.namespace().get()).inform(new SignalOnChange<>(loop::signal))
                    : resources.inAnyNamespace().inform(new SignalOnChange<>(loop::signal));
        }

        synchronized Snapshot snapshot() {
            if (!opened) {
                throw new IllegalStateException(name + ": the informers are not open");
            }
            Map<Watch<?>, List<? extends HasMetadata>> lists = new LinkedHashMap<>();
            caches.forEach((watch, informer) -> lists.put(watch, informer.getStore().list()));
            return new Snapshot(live == null ? null : live.snapshot(), lists, leading(), leader());
        }

        /** Runs the controller's pass, unless the caches do not show the last passes' writes yet: then how long to wait at most. */
        private Optional<Duration> pass() {
            Optional<Duration> wait = unseen().waitFor();
            if (wait.isPresent()) {
                return wait;
            }
            Pass pass = controller.pass(snapshot());
            apply(pass.actions());
            if (pass.comeBackSoon()) {
                comeBackSoon();
            }
            return Optional.empty();
        }

        private synchronized UnseenWrites unseen() {
            if (unseen == null) {
                List<UnseenWrites.Watched> watched = new ArrayList<>(live == null ? List.of() : live.watched());
                caches.forEach((watch, informer) -> watched.add(new UnseenWrites.Watched(watch.api(), watch.kind(), watch.namespace(),
                        informer.getStore())));
                unseen = new UnseenWrites(watched, OWN_WRITES_PATIENCE, System::nanoTime);
            }
            return unseen;
        }

        private void apply(List<Action> actions) {
            List<String> failed = new ArrayList<>();
            for (Action action : actions) {
                try {
                    unseen().wrote(action, writer.apply(action));
                } catch (KubernetesClientException e) {
                    switch (controller.refused(action, e)) {
                        case IGNORE -> {
                        }
                        case PASS_AGAIN -> {
                            // A conflict with another writer, or the object went meanwhile: the next pass sees the new state.
                            LOG.info("{}: {} did not go through ({}); retrying", name, action.describe(), reason(e));
                            loop.signal();
                        }
                        case RETRY_LATER -> failed.add(action.describe() + " (" + reason(e) + ")");
                    }
                }
            }
            if (!failed.isEmpty()) {
                throw new WritesFailed(failed);
            }
        }

        /** Stops the passes (a running one finishes first), then lets the controller close what they used. */
        void stop() {
            synchronized (this) {
                ended = true;
            }
            loop.close();
            controller.stopped();
        }

        /** Closes the informers, then carries out the controller's last writes from their last view; once. */
        void release() {
            Snapshot last;
            synchronized (this) {
                if (!opened) {
                    return;
                }
                last = snapshot();
                close(live, caches);
                live = null;
                caches.clear();
                opened = false;
            }
            for (Action action : controller.closing(last)) {
                try {
                    writer.apply(action);
                } catch (KubernetesClientException e) {
                    LOG.info("{}: {} did not go through on shutdown ({})", name, action.describe(), reason(e));
                }
            }
        }

        private static void close(LiveObjectsInformers objects, Map<Watch<?>, SharedIndexInformer<? extends HasMetadata>> informers) {
            if (objects != null) {
                objects.close();
            }
            informers.values().forEach(SharedIndexInformer::close);
        }
    }

    /** Some writes of a pass did not go through; the loop runs the whole pass again after its retry delay. */
    static final class WritesFailed extends RuntimeException {
        WritesFailed(List<String> failed) {
            super(failed.size() + " write(s) did not go through, retrying: " + String.join("; ", failed), null, false, false);
        }
    }
}
