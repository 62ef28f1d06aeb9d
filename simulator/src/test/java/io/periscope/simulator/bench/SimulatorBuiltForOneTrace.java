package io.periscope.simulator.bench;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the visualizer pays for its simulator on a save that plans again (issue 32): a simulator built
 * for the plan of the generated 20-cluster set of {@code scripts/benchmark-visualizer} (240 hosts),
 * then that set's one flow traced, first pod of c0 to c19's export. {@code compile=UP_FRONT} is
 * {@code new Simulator(plan)}, every host compiled; {@code ON_FIRST_USE} is
 * {@link Simulator#compilingOnFirstUse}, only the hosts the trace reaches. Run it with
 * {@code scripts/benchmark-simulator SimulatorBuiltForOneTrace}; the target is the visualizer's
 * (a redraw after a save at 20 clusters under 500 ms), of which this is a part.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:ActiveProcessorCount=1", "-Xms1g", "-Xmx1g"})
public class SimulatorBuiltForOneTrace {

    public enum Compile { UP_FRONT, ON_FIRST_USE }

    @Param({"UP_FRONT", "ON_FIRST_USE"})
    public Compile compile;

    private ClusterSetPlan plan;
    private Flow flow;

    @Setup
    public void planOnce() throws Exception {
        ClusterSet set = new SyntheticClusterSet(20, 4, 2, 8, 2, 0, GlobalnetMode.V2).build();
        Cluster first = set.clusters().getFirst();
        Cluster last = set.clusters().getLast();
        Pod pod = first.pods().getFirst();
        var export = last.exports().getFirst();
        Service service = last.service(export.namespace(), export.name()).orElseThrow();
        flow = new Flow("first-to-last", FlowEndpointSyntax.parseSource(first.name() + "/" + pod.namespace() + "/" + pod.name()),
                FlowEndpointSyntax.parseTarget(last.name() + "." + service.name() + "." + service.namespace() + ".svc.clusterset.local:"
                        + service.ports().getFirst().port()), Protocol.TCP, Optional.empty());
        plan = Planner.plan(set.withFlows(List.of(flow)));
        FlowTrace trace = buildAndTrace();
        // A figure for a flow that quietly stopped working would be no figure at all.
        if (trace.paths().isEmpty() || trace.paths().stream().anyMatch(p -> p.disposition() != Disposition.DELIVERED)) {
            throw new IllegalStateException("the 20-cluster set's flow does not deliver every path: " + trace);
        }
        System.out.printf("%n20 clusters, %d hosts, %s: %d path(s)%n", plan.hosts().size(), compile, trace.paths().size());
    }

    @Benchmark
    public FlowTrace buildAndTrace() throws Exception {
        Simulator simulator = compile == Compile.UP_FRONT ? new Simulator(plan, MultipathMode.ALL_BRANCHES)
                : Simulator.compilingOnFirstUse(plan, MultipathMode.ALL_BRANCHES);
        return simulator.trace(flow);
    }
}
