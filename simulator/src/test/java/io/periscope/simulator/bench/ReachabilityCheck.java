package io.periscope.simulator.bench;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.reachability.MatrixProgress;
import io.periscope.simulator.reachability.ReachabilityMatrix;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What {@code periscope check} computes for a generated 10-cluster set of 10,000 pods and 100 exported
 * services, 1,000,000 pod-to-service flows: the plan, the simulator, and the reachability matrix
 * ({@link #check}); and the matrix alone on a simulator built once ({@link #matrixOnly}), which must
 * leave the heap where it found it. Single shots, as {@code check} runs once; the target is 30 s.
 *
 * <p>Each cluster: 10 nodes (2 active gateways), 1,000 pods, 10 exported services, 2 GlobalEgressIPs
 * (a namespace's, and a pod selector's), Globalnet 2.0 with the same pod and service CIDRs everywhere.
 * Pods take {@code appsPerCluster} app labels in turn and service {@code s} selects {@code app-s}: with
 * 250, each service has 4 backends and 960 pods are clients only; with 10, every pod is one of 100
 * backends of a service.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-XX:ActiveProcessorCount=1", "-Xms2g", "-Xmx2g"})
public class ReachabilityCheck {

    @Param("250")
    public int appsPerCluster;

    private ClusterSet set;
    private ReachabilityMatrix last;
    private double before;

    /** The simulator of the generated set, built once for {@link #matrixOnly}. */
    @State(Scope.Benchmark)
    public static class Built {

        private Simulator simulator;

        @Setup(Level.Trial)
        public void build(ReachabilityCheck generated) {
            simulator = new Simulator(Planner.plan(generated.set));
        }
    }

    @Setup(Level.Trial)
    public void generate() {
        set = new SyntheticClusterSet(10, 10, 2, 1000, 10, 2, GlobalnetMode.V2, appsPerCluster).build();
    }

    @Setup(Level.Iteration)
    public void measureBefore() {
        last = null;
        before = HeapUse.retainedMiB();
        HeapUse.resetPeak();
    }

    /** Plan, simulator and matrix: {@code check} without reading and printing the file. */
    @Benchmark
    public ReachabilityMatrix check() {
        last = ReachabilityMatrix.of(new Simulator(Planner.plan(set)), MatrixProgress.NONE);
        return last;
    }

    /** The matrix alone, on a simulator built before. */
    @Benchmark
    public ReachabilityMatrix matrixOnly(Built built) {
        last = ReachabilityMatrix.of(built.simulator, MatrixProgress.NONE);
        return last;
    }

    /**
     * Retained heap before and after (the matrix still held), and the peak of the generations that
     * survive collections: what the computation kept alive at its busiest, garbage not counted.
     */
    @TearDown(Level.Iteration)
    public void reportHeap() {
        double tenuredPeak = HeapUse.tenuredPeakMiB();
        double after = HeapUse.retainedMiB();
        long flows = (long) last.sources().size() * last.columns().size();
        System.out.printf(Locale.ROOT, "%n  %,d flows (%,d pods x %d services), %,d traced; retained heap before %.0f MiB, "
                        + "after %.0f MiB (matrix held); old generation peak %.0f MiB; max heap %.0f MiB%n", flows,
                last.sources().size(), last.columns().size(), last.traced(), before, after, tenuredPeak, HeapUse.maxMiB());
        last = null;
    }
}
