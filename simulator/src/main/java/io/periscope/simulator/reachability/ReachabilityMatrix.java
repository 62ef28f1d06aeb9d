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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
     */
    static ReachabilityMatrix of(Simulator simulator, MatrixProgress progress, Paths paths, java.util.function.LongConsumer foldedBranches) {
        List<Probe> probes = probes(simulator.plan().clusterSet());
        List<SourcePod> pods = sourcePods(simulator.plan().clusterSet());
        PodTreatment treatment = PodTreatment.of(simulator.plan(), pods, simulator.mode());
        Map<Object, List<SourcePod>> classes = new LinkedHashMap<>();
        for (SourcePod pod : pods) {
            Object key = treatment.noClasses().isPresent() ? pod : treatment.key(pod);
            classes.computeIfAbsent(key, k -> new ArrayList<>()).add(pod);
        }
        List<List<Cell>> rows = new ArrayList<>(java.util.Collections.nCopies(pods.size(), List.of()));
        long total = (long) pods.size() * probes.size();
        progress.start(total);
        long done = 0;
        long traced = 0;
        PodTreatment.NamedPods named = treatment.chainsNaming();
        List<PodClass> runs = new ArrayList<>();
        for (List<SourcePod> members : classes.values()) {
            // A pod no rule names is the best stand-in: its trace concerns nobody's address but its own.
            List<SourcePod> ordered = new ArrayList<>(members);
            ordered.sort((a, b) -> Boolean.compare(treatment.namedInSomeChain(a), treatment.namedInSomeChain(b)));
            runs.add(new PodClass(members, ordered, new Cell[probes.size()], new HashMap<>()));
        }
        // Service by service: the flows of all classes to one service share what they walk in its
        // cluster (CableSegments), which is then forgotten.
        CableSegments segments = new CableSegments();
        EndpointClasses endpoints = treatment.endpointClasses();
        for (int c = 0; c < probes.size(); c++) {
            Probe probe = probes.get(c);
            segments.clear();
            for (PodClass run : runs) {
                SourcePod stand = run.ordered().getFirst();
                run.shared()[c] = cell(simulator, stand, probe, named.tracing(stand).orNullWhenUseless(), paths, segments, endpoints);
                traced++;
                boolean standNamed = named.named(stand);
                for (SourcePod member : run.ordered()) {
                    if (member != stand && (standNamed || named.named(member))) {
                        run.own().computeIfAbsent(member, m -> new Cell[probes.size()])[c] = cell(simulator, member, probe, null, paths,
                                segments, endpoints);
                        traced++;
                    }
                }
                done += run.members().size();
                progress.advance(done);
            }
        }
        foldedBranches.accept(endpoints == null ? 0 : endpoints.folded());
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
                rows, traced);
    }

    /**
     * A class of alike pods: its stand-in first in {@code ordered}, the cells of its row that the
     * stand-in's traces fill, and those of members traced themselves.
     */
    private record PodClass(List<SourcePod> members, List<SourcePod> ordered, Cell[] shared, Map<SourcePod, Cell[]> own) {
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
