package io.periscope.simulator.bench;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.planner.Planner;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.PathTrace;
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

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Traced flows per second: the first flow of a topology file (by default the README's main job,
 * {@code examples/mag-globalnet.yaml}: four paths, each forward and reply), traced again and again by
 * a simulator built once. One operation is one flow, all its paths, forward and reply. Run it with
 * {@code scripts/benchmark-simulator}, which pins one core; the target is 100,000 flows per second
 * following every branch.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:ActiveProcessorCount=1", "-Xms1g", "-Xmx1g"})
public class TraceThroughput {

    /** Relative to the directory the benchmark runs in (the script runs it in the project's root). */
    @Param("examples/mag-globalnet.yaml")
    public String topology;

    @Param({"ALL_BRANCHES", "HASH"})
    public MultipathMode mode;

    private Simulator simulator;
    private ResolvedFlow flow;

    @Setup
    public void buildSimulatorOnce() throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of(topology));
        simulator = new Simulator(Planner.plan(set), mode);
        flow = simulator.resolver().resolve(set.flows().getFirst());
        List<PathTrace> paths = simulator.trace(flow);
        // A figure for a flow that quietly stopped working would be no figure at all.
        if (paths.isEmpty() || paths.stream().anyMatch(p -> p.disposition() != Disposition.DELIVERED || !p.hasReply())) {
            throw new IllegalStateException(topology + ": the first flow does not deliver every path with its reply: " + paths);
        }
        System.out.printf("%n%s, %s: %d path(s) per flow, %d hops forward and reply%n", topology, mode, paths.size(),
                paths.stream().mapToInt(p -> p.forward().size() + p.reply().size()).sum());
    }

    @Benchmark
    public List<PathTrace> traceOneFlow() {
        return simulator.trace(flow);
    }
}
