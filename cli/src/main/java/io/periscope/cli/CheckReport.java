package io.periscope.cli;

import io.periscope.simulator.whatif.FailoverReport;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.periscope.model.globalnet.AllocationReason;
import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.simulator.reachability.ReachabilityMatrix;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.PathTrace;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@code check} found: each flow against its expectation, the Globalnet objects that could not get
 * their addresses, the cluster graph, and the reachability matrix (empty when not computed).
 */
record CheckReport(List<FlowResult> flows, List<AllocationFailure> allocationFailures, List<String> clusters,
                   List<List<String>> cableDrivers, Optional<ReachabilityMatrix> matrix) {

    /** The connections table's word for a pair whose cable is planned but one side has no gateway left (--fail). */
    static final String DOWN = "down";

    /**
     * A Globalnet object whose pool could not give it the addresses it asked for (IPPoolAllocationFailed):
     * the cluster would run without them, so check fails as for a broken flow.
     */
    record AllocationFailure(String cluster, String object, String reason, String message) {
    }

    /**
     * A flow's outcome: how many of its paths ended each way. An expectation holds when every path
     * ends as expected: a flow that works on one gateway pair and not on another is a real problem.
     */
    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    record FlowResult(String name, String from, String to, String resolved, @JsonIgnore Optional<String> expect,
                      Map<String, Integer> paths, List<String> reasons, boolean passed) {

        /** Jackson has no Optional support without a module the build does not have; absent is left out. */
        @JsonProperty("expect")
        String expectation() {
            return expect.orElse(null);
        }
    }

    static CheckReport of(ClusterSet set, List<FlowTrace> traces, GlobalnetAllocations allocations, Collection<NodeReference> failedNodes,
                          Optional<ReachabilityMatrix> matrix) {
        List<FlowResult> results = new ArrayList<>();
        for (int i = 0; i < traces.size(); i++) {
            Flow flow = set.flows().get(i);
            FlowTrace trace = traces.get(i);
            Map<String, Integer> counts = new LinkedHashMap<>();
            List<String> reasons = new ArrayList<>();
            for (PathTrace path : trace.paths()) {
                counts.merge(path.disposition().yamlName(), 1, Integer::sum);
                path.reason().filter(r -> !reasons.contains(r)).ifPresent(reasons::add);
            }
            boolean passed = flow.expect().map(trace::endsAs).orElse(true);
            results.add(new FlowResult(flow.name(), trace.from(), trace.to(), trace.resolved(),
                    flow.expect().map(Disposition::yamlName), counts, reasons, passed));
        }
        ClusterGraph graph = ClusterGraph.of(set);
        List<String> names = set.clusters().stream().map(Cluster::name).toList();
        List<List<String>> drivers = new ArrayList<>();
        for (String a : names) {
            List<String> row = new ArrayList<>();
            for (String b : names) {
                boolean down = !gatewayLeft(set, a, failedNodes) || !gatewayLeft(set, b, failedNodes);
                row.add(a.equals(b) ? "" : graph.connection(a, b).map(c -> down ? DOWN : c.cableDriver().name().yamlName()).orElse("-"));
            }
            drivers.add(row);
        }
        return new CheckReport(results, allocationFailures(set, allocations), names, drivers, matrix);
    }

    private static boolean gatewayLeft(ClusterSet set, String cluster, Collection<NodeReference> failedNodes) {
        return set.requireCluster(cluster).nodes().stream()
                .anyMatch(n -> n.gateway() && !failedNodes.contains(new NodeReference(cluster, n.name())));
    }

    private static List<AllocationFailure> allocationFailures(ClusterSet set, GlobalnetAllocations allocations) {
        List<AllocationFailure> failures = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            allocations.cluster(cluster.name()).ifPresent(allocated -> {
                for (GlobalIpAllocation allocation : allocated.allocations()) {
                    if (allocation.condition().reason() == AllocationReason.IP_POOL_ALLOCATION_FAILED) {
                        failures.add(new AllocationFailure(cluster.name(), allocation.requester(),
                                allocation.condition().reason().upstreamName(), allocation.condition().message()));
                    }
                }
            });
        }
        return failures;
    }

    boolean allExpectationsHold() {
        return flows.stream().allMatch(FlowResult::passed) && allocationFailures.isEmpty();
    }

    /** The JSON document: the file's summary and the report. */
    record Json(TopologySummary topology, List<FlowResult> flows, List<AllocationFailure> allocationFailures,
                Map<String, Map<String, String>> connections, ReachabilityJson reachability, boolean passed,
                @JsonInclude(JsonInclude.Include.NON_NULL) SpreadReport.Json spread, List<String> warnings,
                @JsonInclude(JsonInclude.Include.NON_NULL) com.fasterxml.jackson.databind.JsonNode failover) {

        Json(TopologySummary topology, CheckReport report) {
            this(topology, report, null, List.of(), Optional.empty());
        }

        /**
         * With {@code spread} (null without {@code --spread}, and then left out), the warnings said on
         * standard error, and under {@code --fail} the failover report (left out without).
         */
        Json(TopologySummary topology, CheckReport report, SpreadReport.Json spread, List<String> warnings, Optional<FailoverReport> failover) {
            this(topology, report.flows(), report.allocationFailures(), report.connectionMap(), ReachabilityJson.of(report.matrix()),
                    report.allExpectationsHold(), spread, warnings, failover.map(FailoverReport::toJson).orElse(null));
        }
    }

    /** {@code computed} false (and everything empty) under {@code --no-matrix}, so it is not mistaken for "nothing exported". */
    record ReachabilityJson(boolean computed, List<String> sources, List<ReachabilityMatrix.Column> services, List<List<String>> cells,
                            long traced) {
        static ReachabilityJson of(Optional<ReachabilityMatrix> computed) {
            ReachabilityMatrix matrix = computed.orElse(ReachabilityMatrix.EMPTY);
            return new ReachabilityJson(computed.isPresent(), matrix.sources(), matrix.columns(),
                    matrix.cells().stream().map(row -> row.stream().map(ReachabilityMatrix.Cell::symbol).toList()).toList(),
                    matrix.traced());
        }
    }

    Map<String, Map<String, String>> connectionMap() {
        Map<String, Map<String, String>> map = new LinkedHashMap<>();
        for (int i = 0; i < clusters.size(); i++) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int j = 0; j < clusters.size(); j++) {
                if (i != j) {
                    row.put(clusters.get(j), cableDrivers.get(i).get(j));
                }
            }
            map.put(clusters.get(i), row);
        }
        return map;
    }

    String toText() {
        StringBuilder text = new StringBuilder();
        if (flows.isEmpty()) {
            text.append("flows: none in the file\n");
        } else {
            text.append("flows:\n");
            for (FlowResult flow : flows) {
                String outcome = flow.paths().entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                        .collect(Collectors.joining(", "));
                text.append(flow.passed() ? (flow.expect().isPresent() ? "  PASS " : "  ---- ") : "  FAIL ")
                        .append(flow.name()).append(": ").append(outcome.isEmpty() ? "no path" : outcome)
                        .append(flow.expect().map(e -> " (expected " + e + ")").orElse(" (no expectation)")).append('\n');
                if (!flow.passed()) {
                    flow.reasons().forEach(r -> text.append("       ").append(r).append('\n'));
                }
            }
        }
        if (!allocationFailures.isEmpty()) {
            text.append("\nglobalnet allocations that failed:\n");
            for (AllocationFailure failure : allocationFailures) {
                text.append("  FAIL ").append(failure.cluster()).append(": ").append(failure.reason()).append(": ")
                        .append(failure.message()).append('\n');
            }
        }
        text.append("\nconnections (cable driver between clusters, - = not connected, " + DOWN
                + " = planned but every gateway of one side failed):\n");
        int width = Math.max(8, clusters.stream().mapToInt(String::length).max().orElse(8)) + 2;
        text.append(" ".repeat(width + 2));
        clusters.forEach(c -> text.append(String.format("%-" + width + "s", c)));
        text.append('\n');
        for (int i = 0; i < clusters.size(); i++) {
            text.append("  ").append(String.format("%-" + width + "s", clusters.get(i)));
            for (String driver : cableDrivers.get(i)) {
                text.append(String.format("%-" + width + "s", driver));
            }
            text.append('\n');
        }
        text.append('\n').append(matrix.map(ReachabilityText::render)
                .orElse("reachability: not computed (--no-matrix)\n"));
        long failed = flows.stream().filter(f -> !f.passed()).count();
        text.append('\n');
        if (failed == 0 && allocationFailures.isEmpty()) {
            text.append("every expectation holds");
        } else {
            List<String> parts = new ArrayList<>();
            if (failed > 0) {
                parts.add(failed + " of " + flows.size() + (flows.size() == 1 ? " flow" : " flows") + " failed " + (failed == 1 ? "its" : "their")
                        + " expectation");
            }
            if (!allocationFailures.isEmpty()) {
                parts.add(allocationFailures.size() + (allocationFailures.size() == 1 ? " Globalnet object" : " Globalnet objects")
                        + " could not get " + (allocationFailures.size() == 1 ? "its" : "their") + " addresses");
            }
            text.append(String.join("; ", parts));
        }
        text.append('\n');
        return text.toString();
    }
}
