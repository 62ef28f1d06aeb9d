package io.periscope.simulator.reachability;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.HostId;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.NameNotAnswered;
import io.periscope.simulator.PathCount;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.engine.CableSegments;
import io.periscope.simulator.engine.EndpointClasses;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.trace.PathTrace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Which source pods reach which exported services, through the simulator: a row per pod with its own
 * network namespace, a column per exported service (its first port; for a headless service, its first
 * pod's name), a cell per pair.
 *
 * <p>Pods that the plan treats alike give the same answer (see {@link PodTreatment}), so one pod per
 * class is traced for each service, and a pod of the class is traced itself only where that trace went
 * through a rule naming the pod's own address. A cell counts how its flow's paths end without building
 * their hops ({@link Simulator#count}): nothing of a trace is made but its cell.
 *
 * @param traced how many flows were traced to fill the matrix
 */
public record ReachabilityMatrix(List<String> sources, List<Column> columns, List<List<Cell>> cells, long traced) {

    public static final ReachabilityMatrix EMPTY = new ReachabilityMatrix(List.of(), List.of(), List.of(), 0);

    public ReachabilityMatrix {
        sources = List.copyOf(sources);
        columns = List.copyOf(columns);
        cells = List.copyOf(cells);
    }

    /** An exported service: {@code cluster/namespace/name}, the DNS name asked, and {@code tcp/80}. */
    public record Column(String service, String dnsName, String protocolAndPort) {
    }

    /** Delivered paths out of all paths; {@code error} when the service cannot be resolved from the source. */
    public record Cell(int delivered, int paths, Optional<String> error) {

        /** {@code yes} every path delivered, {@code part} some, {@code no} none, {@code err} not resolvable. */
        public String symbol() {
            if (error.isPresent() || paths == 0) {
                return "err";
            }
            return delivered == paths ? "yes" : delivered == 0 ? "no" : "part";
        }
    }

    /** A column with what its flows need: the name to resolve, the port and protocol. */
    private record Probe(Column column, FlowTarget target, Protocol protocol) {
    }

    /**
     * The matrix of the simulator's plan, tracing each class of alike pods once per service. A
     * simulator that picks one path per flow by hash gets every pod traced, as the hash depends on the
     * source address.
     */
    public static ReachabilityMatrix of(Simulator simulator, MatrixProgress progress) {
        return of(simulator, progress, Paths.COUNTED);
    }

    /** How a cell learns how its flow's paths end. */
    enum Paths {
        /** The walk keeps no hops: {@link Simulator#count}. What the matrix uses. */
        COUNTED,
        /** Every path built in full, as {@code trace} shows it, and its disposition read: what counting must equal. */
        WALKED
    }

    /** The matrix as {@link #of(Simulator, MatrixProgress)} makes it, each cell's paths found as {@code paths} says. */
    static ReachabilityMatrix of(Simulator simulator, MatrixProgress progress, Paths paths) {
        return of(simulator, progress, paths, folded -> { });
    }

    /**
     * As {@link #of(Simulator, MatrixProgress, Paths)}, telling {@code foldedBranches} how many branches of
     * forks into a service's endpoints were counted as another endpoint of their class instead of walked.
     * Its columns are shared among as many threads as the JVM has processors, the others joining the
     * caller's once the JIT compiler no longer keeps the other processors busy: while it does, a second
     * walking thread slows both (on 2 cores, the sets of {@code scripts/benchmark-check} took as long as on
     * one thread, a 20-cluster variant of its 400-path set 0.86 of the time: docs/benchmarks.md).
     */
    static ReachabilityMatrix of(Simulator simulator, MatrixProgress progress, Paths paths, LongConsumer foldedBranches) {
        return of(simulator, progress, paths, foldedBranches, Runtime.getRuntime().availableProcessors(), true);
    }

    /**
     * As {@link #of(Simulator, MatrixProgress, Paths, LongConsumer)}, on {@code threads}
     * threads (the caller's among them). A column is one thread's: the flows of all classes to one service
     * share what they walk in its cluster ({@link CableSegments}) in the order they are walked, so every
     * cell is what one thread would make, whatever the number of threads. All threads start at once.
     */
    static ReachabilityMatrix of(Simulator simulator, MatrixProgress progress, Paths paths, LongConsumer foldedBranches,
                                 int threads) {
        return of(simulator, progress, paths, foldedBranches, threads, false);
    }

    private static ReachabilityMatrix of(Simulator simulator, MatrixProgress progress, Paths paths, LongConsumer foldedBranches,
                                         int threads, boolean whenCompilerIdle) {
        if (threads < 1) {
            throw new IllegalArgumentException("a matrix needs at least one thread, not " + threads);
        }
        List<Probe> probes = probes(simulator.plan().clusterSet());
        List<SourcePod> pods = sourcePods(simulator.plan().clusterSet());
        PodTreatment treatment = PodTreatment.of(simulator.plan(), pods, simulator.mode());
        Map<Object, List<SourcePod>> classes = new LinkedHashMap<>();
        for (SourcePod pod : pods) {
            Object key = treatment.noClasses().isPresent() ? pod : treatment.key(pod);
            classes.computeIfAbsent(key, k -> new ArrayList<>()).add(pod);
        }
        List<List<Cell>> rows = new ArrayList<>(Collections.nCopies(pods.size(), List.of()));
        progress.start((long) pods.size() * probes.size());
        List<PodClass> runs = new ArrayList<>();
        for (List<SourcePod> members : classes.values()) {
            // A pod no rule names is the best stand-in: its trace concerns nobody's address but its own.
            List<SourcePod> ordered = new ArrayList<>(members);
            ordered.sort((a, b) -> Boolean.compare(treatment.namedInSomeChain(a), treatment.namedInSomeChain(b)));
            runs.add(new PodClass(members, ordered, new Cell[probes.size()], new ConcurrentHashMap<>()));
        }
        Columns columns = new Columns(simulator, probes, runs, treatment, paths, progress);
        columns.fill(Math.min(threads, Math.max(1, probes.size())), whenCompilerIdle);
        foldedBranches.accept(columns.endpoints == null ? 0 : columns.endpoints.folded());
        for (PodClass run : runs) {
            List<Cell> sharedRow = List.of(run.shared());
            for (SourcePod member : run.members()) {
                Cell[] mine = run.own().get(member);
                if (mine == null) {
                    rows.set(member.row(), sharedRow);
                } else {
                    for (int c = 0; c < mine.length; c++) {
                        if (mine[c] == null) {
                            mine[c] = run.shared()[c];
                        }
                    }
                    rows.set(member.row(), List.of(mine));
                }
            }
        }
        return new ReachabilityMatrix(pods.stream().map(SourcePod::label).toList(), probes.stream().map(Probe::column).toList(),
                rows, columns.traced.sum());
    }

    /**
     * The matrix's columns, taken one at a time by each thread that fills them: the flows of every
     * class to the column's service, and of the members a trace concerned. What the threads write is
     * apart (a column's cells; a member's row by {@link ConcurrentHashMap}); the counts are shared.
     */
    private static final class Columns {

        private final Simulator simulator;
        private final List<Probe> probes;
        private final List<PodClass> runs;
        private final PodTreatment treatment;
        private final Paths paths;
        private final MatrixProgress progress;
        private final EndpointClasses endpoints;
        private final AtomicInteger next = new AtomicInteger();
        private final LongAdder traced = new LongAdder();
        /** Cells decided; advanced under this object's lock, so that the progress is told totals in order. */
        private long done;
        private volatile boolean stopped;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Columns(Simulator simulator, List<Probe> probes, List<PodClass> runs, PodTreatment treatment, Paths paths,
                MatrixProgress progress) {
            this.simulator = simulator;
            this.probes = probes;
            this.runs = runs;
            this.treatment = treatment;
            this.paths = paths;
            this.progress = progress;
            this.endpoints = treatment.endpointClasses();
        }

        /**
         * Fills every column on up to {@code threads} threads, this one among them; what a thread throws is
         * thrown here. With {@code whenCompilerIdle} the other threads start only once the JIT compiler
         * has left the other cores to the walk (see {@link CompilerWatch}); else at once.
         */
        void fill(int threads, boolean whenCompilerIdle) {
            List<Thread> helpers = new ArrayList<>();
            Runnable startHelpers = () -> {
                for (int i = 1; i < threads; i++) {
                    helpers.add(Thread.ofPlatform().name("periscope-matrix-" + i).daemon().start(() -> fillColumnsOrStop(null)));
                }
            };
            CompilerWatch watch = threads < 2 ? null : whenCompilerIdle ? CompilerWatch.start() : null;
            if (threads > 1 && watch == null) {
                startHelpers.run();
            }
            fillColumnsOrStop(watch == null ? null : () -> {
                if (watch.idle()) {
                    startHelpers.run();
                    return true;
                }
                return false;
            });
            boolean interrupted = false;
            for (Thread h : helpers) {
                while (true) {
                    try {
                        h.join();
                        break;
                    } catch (InterruptedException e) {
                        // Asked to stop: the helpers stop after their column; the interrupt is kept for the caller.
                        interrupted = true;
                        stopped = true;
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
                throw new CancellationException("the reachability matrix was interrupted");
            }
            Throwable t = failure.get();
            if (t instanceof RuntimeException e) {
                throw e;
            }
            if (t instanceof Error e) {
                throw e;
            }
            if (t != null) {
                throw new IllegalStateException(t);
            }
        }

        /** {@link #fillColumns}, keeping the first failure of any thread and stopping the others after their column. */
        private void fillColumnsOrStop(BooleanSupplier helpersStarted) {
            try {
                fillColumns(helpersStarted);
            } catch (Throwable t) {
                stopped = true;
                failure.compareAndSet(null, t);
            }
        }

        /** @param helpersStarted asked after each column until it says true, when not null */
        private void fillColumns(BooleanSupplier helpersStarted) {
            // Each thread its own: the observer keeps what the trace it watches entered, the segments one service's walks.
            PodTreatment.NamedPods named = treatment.chainsNaming();
            CableSegments segments = new CableSegments();
            for (int c = next.getAndIncrement(); c < probes.size() && !stopped; c = next.getAndIncrement()) {
                Probe probe = probes.get(c);
                segments.clear();
                for (PodClass run : runs) {
                    SourcePod stand = run.ordered().getFirst();
                    run.shared()[c] = cell(simulator, stand, probe, named.tracing(stand).orNullWhenUseless(), paths, segments, endpoints);
                    traced.increment();
                    boolean standNamed = named.named(stand);
                    for (SourcePod member : run.ordered()) {
                        if (member != stand && (standNamed || named.named(member))) {
                            run.own().computeIfAbsent(member, m -> new Cell[probes.size()])[c] = cell(simulator, member, probe, null, paths,
                                    segments, endpoints);
                            traced.increment();
                        }
                    }
                    advance(run.members().size());
                }
                if (helpersStarted != null && helpersStarted.getAsBoolean()) {
                    helpersStarted = null;
                }
            }
        }

        private synchronized void advance(int cells) {
            done += cells;
            progress.advance(done);
        }
    }

    /**
     * A class of alike pods: its stand-in first in {@code ordered}, the cells of its row that the
     * stand-in's traces fill, and those of members traced themselves.
     */
    private record PodClass(List<SourcePod> members, List<SourcePod> ordered, Cell[] shared,
                            ConcurrentMap<SourcePod, Cell[]> own) {
    }

    /** The matrix with every pod traced to every service, every path built in full: what {@link #of} must equal. */
    static ReachabilityMatrix everyPodTraced(Simulator simulator) {
        List<Probe> probes = probes(simulator.plan().clusterSet());
        List<SourcePod> pods = sourcePods(simulator.plan().clusterSet());
        List<List<Cell>> rows = new ArrayList<>();
        for (SourcePod pod : pods) {
            Cell[] row = new Cell[probes.size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = cell(simulator, pod, probes.get(c), null, Paths.WALKED, null, null);
            }
            rows.add(Arrays.asList(row));
        }
        return new ReachabilityMatrix(pods.stream().map(SourcePod::label).toList(), probes.stream().map(Probe::column).toList(),
                rows, (long) pods.size() * probes.size());
    }

    /** The classes of alike backends whose branches the matrix's walks fold (null when the plan allows none), for tests. */
    static EndpointClasses endpointClasses(Simulator simulator) {
        return PodTreatment.of(simulator.plan(), sourcePods(simulator.plan().clusterSet()), simulator.mode()).endpointClasses();
    }

    private static List<Probe> probes(ClusterSet set) {
        List<Probe> probes = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            for (ServiceExport export : cluster.exports()) {
                Optional<Service> service = cluster.service(export.namespace(), export.name());
                if (service.isEmpty() || service.get().ports().isEmpty()) {
                    continue;
                }
                ServicePort port = service.get().ports().getFirst();
                String dns;
                if (service.get().headless()) {
                    List<Pod> backends = cluster.endpointsOf(service.get());
                    if (backends.isEmpty()) {
                        continue;
                    }
                    dns = backends.getFirst().name() + "." + cluster.name() + "." + export.name() + "." + export.namespace()
                            + ".svc.clusterset.local";
                } else {
                    dns = cluster.name() + "." + export.name() + "." + export.namespace() + ".svc.clusterset.local";
                }
                Column column = new Column(cluster.name() + "/" + export, dns, port.protocol().lowerName() + "/" + port.port());
                probes.add(new Probe(column, new FlowTarget.DnsTarget(dns, port.port()), port.protocol()));
            }
        }
        return probes;
    }

    private static List<SourcePod> sourcePods(ClusterSet set) {
        List<SourcePod> pods = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            for (Pod pod : cluster.pods()) {
                if (!pod.hostNetwork()) {
                    pods.add(new SourcePod(pods.size(), cluster.name(), pod, HostId.pod(cluster.name(), pod.namespace(), pod.name())));
                }
            }
        }
        return pods;
    }

    /** @param segments what the flows to {@code probe}'s service walked in its cluster, shared when counting */
    private static Cell cell(Simulator simulator, SourcePod pod, Probe probe, ChainObserver chains, Paths paths, CableSegments segments,
                             EndpointClasses endpoints) {
        ResolvedFlow flow;
        try {
            // Named after the service alone: whatever goes wrong resolving it goes wrong for every pod of the cluster.
            flow = simulator.resolver().resolve("reachability of " + probe.column().service(),
                    new FlowSource.PodSource(pod.cluster(), pod.pod().namespace(), pod.pod().name()), probe.target(), probe.protocol());
        } catch (NameNotAnswered e) {
            // Nobody answers the name: the pod gets no address and reaches nothing, as trace says (unreachable).
            return new Cell(0, 1, Optional.empty());
        } catch (FlowResolutionException e) {
            return new Cell(0, 0, Optional.of(e.getMessage()));
        }
        if (paths == Paths.COUNTED) {
            PathCount count = simulator.count(flow, chains, segments, endpoints);
            return new Cell(count.delivered(), count.paths(), Optional.empty());
        }
        List<PathTrace> walked = simulator.trace(flow, chains);
        int delivered = 0;
        for (PathTrace path : walked) {
            if (path.disposition() == Disposition.DELIVERED) {
                delivered++;
            }
        }
        return new Cell(delivered, walked.size(), Optional.empty());
    }
}
