package io.periscope.cli;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which source pods reach which exported services, through the simulator. Pods that the plan
 * treats alike (same cluster, node, namespace and labels, and no rule naming their own address)
 * give the same answer, so each such class is traced once: that keeps the matrix of a large
 * cluster set to seconds.
 */
record ReachabilityMatrix(List<String> sources, List<Column> columns, List<List<Cell>> cells, long traced) {

    static final ReachabilityMatrix EMPTY = new ReachabilityMatrix(List.of(), List.of(), List.of(), 0);

    record Column(String service, String dnsName, String protocolAndPort) {
    }

    /** Delivered paths out of all paths; {@code error} when the service cannot be resolved from the source. */
    record Cell(int delivered, int paths, Optional<String> error) {

        String symbol() {
            if (error.isPresent() || paths == 0) {
                return "err";
            }
            return delivered == paths ? "yes" : delivered == 0 ? "no" : "part";
        }
    }

    static ReachabilityMatrix of(Simulation simulation, Progress progress) {
        ClusterSet set = simulation.simulator().plan().clusterSet();
        List<Column> columns = new ArrayList<>();
        List<Flow> probes = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            for (ServiceExport export : cluster.exports()) {
                Optional<Service> service = cluster.service(export.namespace(), export.name());
                if (service.isEmpty() || service.get().ports().isEmpty()) {
                    continue;
                }
                var port = service.get().ports().getFirst();
                String dns;
                if (service.get().headless()) {
                    List<Pod> backends = cluster.endpointsOf(service.get());
                    if (backends.isEmpty()) {
                        continue;
                    }
                    dns = backends.getFirst().name() + "." + cluster.name() + "." + export.name() + "." + export.namespace() + ".svc.clusterset.local";
                } else {
                    dns = cluster.name() + "." + export.name() + "." + export.namespace() + ".svc.clusterset.local";
                }
                columns.add(new Column(cluster.name() + "/" + export, dns, port.protocol().lowerName() + "/" + port.port()));
                probes.add(new Flow("", new FlowSource.PodSource("", "", ""), new FlowTarget.DnsTarget(dns, port.port()), port.protocol(),
                        Optional.empty()));
            }
        }
        List<String> sources = new ArrayList<>();
        List<Pod> sourcePods = new ArrayList<>();
        List<String> sourceClusters = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            for (Pod pod : cluster.pods()) {
                if (!pod.hostNetwork()) {
                    sources.add(cluster.name() + "/" + pod.namespace() + "/" + pod.name());
                    sourcePods.add(pod);
                    sourceClusters.add(cluster.name());
                }
            }
        }
        Set<String> addressSpecific = addressSpecificPods(set);
        Map<String, List<Cell>> byClass = new HashMap<>();
        List<List<Cell>> cells = new ArrayList<>();
        long traced = 0;
        progress.start("reachability", (long) sources.size() * columns.size());
        for (int row = 0; row < sources.size(); row++) {
            Pod pod = sourcePods.get(row);
            String cluster = sourceClusters.get(row);
            String key = cluster + "\u0000" + pod.node() + "\u0000" + pod.namespace() + "\u0000" + pod.labels()
                    + (addressSpecific.contains(sources.get(row)) ? "\u0000" + pod.ip() : "");
            List<Cell> rowCells = byClass.get(key);
            if (rowCells == null) {
                rowCells = new ArrayList<>();
                for (Flow probe : probes) {
                    Flow flow = new Flow(sources.get(row) + " -> " + probe.to(), new FlowSource.PodSource(cluster, pod.namespace(), pod.name()),
                            probe.to(), probe.protocol(), Optional.empty());
                    rowCells.add(cell(simulation, flow));
                    traced++;
                }
                byClass.put(key, rowCells);
            }
            cells.add(rowCells);
            progress.advance((long) (row + 1) * columns.size());
        }
        progress.finish();
        return new ReachabilityMatrix(sources, columns, cells, traced);
    }

    /** Pods some rule names by address: headless-service backends, and every pod in legacy Globalnet. */
    private static Set<String> addressSpecificPods(ClusterSet set) {
        Set<String> pods = new HashSet<>();
        for (Cluster cluster : set.clusters()) {
            boolean legacy = set.globalnet().enabled() && set.globalnet().mode() == GlobalnetMode.LEGACY;
            for (Service service : cluster.services()) {
                if (service.headless() && cluster.isExported(service) || legacy) {
                    for (Pod pod : legacy ? cluster.pods() : cluster.endpointsOf(service)) {
                        pods.add(cluster.name() + "/" + pod.namespace() + "/" + pod.name());
                    }
                }
            }
        }
        return pods;
    }

    private static Cell cell(Simulation simulation, Flow flow) {
        try {
            FlowTrace trace = simulation.simulator().trace(flow);
            int delivered = (int) trace.paths().stream().map(PathTrace::disposition).filter(d -> d == Disposition.DELIVERED).count();
            return new Cell(delivered, trace.paths().size(), Optional.empty());
        } catch (FlowResolutionException e) {
            return new Cell(0, 0, Optional.of(e.getMessage()));
        }
    }

    String toText() {
        if (columns.isEmpty() || sources.isEmpty()) {
            return "reachability: no exported services or no pods to check\n";
        }
        StringBuilder text = new StringBuilder("reachability (rows: source pods; columns: exported services;\n"
                + "  yes = every path delivered, part = some, no = none, err = not resolvable):\n");
        List<String> labels = new ArrayList<>();
        List<List<Cell>> rows = new ArrayList<>();
        // Consecutive pods of one namespace with the same answers share a row, so the matrix of a
        // large cluster fits a terminal.
        for (int i = 0; i < sources.size(); ) {
            int j = i + 1;
            String namespace = namespaceOf(sources.get(i));
            while (j < sources.size() && namespaceOf(sources.get(j)).equals(namespace) && cells.get(j).equals(cells.get(i))) {
                j++;
            }
            labels.add(j - i == 1 ? sources.get(i) : namespace + "/* (" + (j - i) + " pods)");
            rows.add(cells.get(i));
            i = j;
        }
        int width = Math.min(48, labels.stream().mapToInt(String::length).max().orElse(10) + 1);
        text.append(" ".repeat(width + 2));
        for (int c = 0; c < columns.size(); c++) {
            text.append(String.format("%-6s", "[" + (c + 1) + "]"));
        }
        text.append('\n');
        for (int r = 0; r < rows.size(); r++) {
            String label = labels.get(r);
            text.append("  ").append(label.length() > width ? label.substring(0, width - 1) + "…" : String.format("%-" + width + "s", label));
            for (Cell cell : rows.get(r)) {
                text.append(String.format("%-6s", cell.symbol()));
            }
            text.append('\n');
        }
        for (int c = 0; c < columns.size(); c++) {
            text.append("  [").append(c + 1).append("] ").append(columns.get(c).service()).append("  ")
                    .append(columns.get(c).dnsName()).append(' ').append(columns.get(c).protocolAndPort()).append('\n');
        }
        return text.toString();
    }

    private static String namespaceOf(String source) {
        return source.substring(0, source.lastIndexOf('/'));
    }
}
