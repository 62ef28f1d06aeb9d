package io.periscope.simulator.reachability;

import io.periscope.model.generate.RandomClusterSet;
import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.planner.Planner;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.NameNotAnswered;
import io.periscope.simulator.PathCount;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.PathTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The matrix counts how each flow's paths end without building their hops ({@link Simulator#count});
 * it must equal the matrix read off every path built in full, as {@code trace} shows them: on every
 * example, on the random topologies the simulator's invariants are checked on (Globalnet on and off),
 * and on a set where each flow forks into hundreds of paths.
 */
class CountedPathsGiveTheMatrixOfEveryPathWalked {

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    static IntStream seeds() {
        return IntStream.range(0, 24);
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExamplesMatrixIsTheSameCountedAsWalked(Path example) throws IOException, TopologyException {
        Simulator simulator = new Simulator(Planner.plan(TopologyLoader.load(example)));

        assertSameMatrix(simulator, example.getFileName().toString());
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleFlowCountsWhatItsTraceShows(Path example) throws IOException, TopologyException, FlowResolutionException {
        ClusterSet set = TopologyLoader.load(example);
        Simulator simulator = new Simulator(Planner.plan(set));
        for (Flow flow : set.flows()) {
            ResolvedFlow resolved;
            try {
                resolved = simulator.resolver().resolve(flow);
            } catch (NameNotAnswered e) {
                continue;
            }
            List<PathTrace> walked = simulator.trace(resolved);

            PathCount counted = simulator.count(resolved, null);

            assertThat(counted).as("%s: %s", example.getFileName(), flow.name()).isEqualTo(new PathCount(
                    (int) walked.stream().filter(p -> p.disposition() == Disposition.DELIVERED).count(), walked.size()));
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void randomTopologiesWithGlobalnetCountWhatTheyWalk(int seed) {
        assertSameMatrix(new Simulator(Planner.plan(RandomClusterSet.generate(seed, true))), "seed " + seed + " with Globalnet");
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void randomTopologiesWithoutGlobalnetCountWhatTheyWalk(int seed) {
        assertSameMatrix(new Simulator(Planner.plan(RandomClusterSet.generate(seed, false))), "seed " + seed + " without Globalnet");
    }

    @Test
    void flowsOfDozensOfPathsCountEachOfThem() {
        // 2 clusters of 2 gateways, every pod one of 24 backends of its service: a flow forks at least
        // once per backend.
        ClusterSet set = new SyntheticClusterSet(2, 4, 2, 48, 2, 1, GlobalnetMode.V2, 2).build();
        Simulator simulator = new Simulator(Planner.plan(set));

        ReachabilityMatrix counted = assertSameMatrix(simulator, "24 backends per service");

        assertThat(counted.cells().stream().flatMap(List::stream).mapToInt(ReachabilityMatrix.Cell::paths).max().orElse(0))
                .isGreaterThan(24);
    }

    @Test
    void aSimulatorThatHashesPathsCountsItsOnePath() {
        ClusterSet set = new SyntheticClusterSet(2, 3, 2, 12, 2, 1, GlobalnetMode.V2, 2).build();
        Simulator simulator = new Simulator(Planner.plan(set), MultipathMode.HASH);

        ReachabilityMatrix counted = assertSameMatrix(simulator, "hash");

        assertThat(counted.cells().stream().flatMap(List::stream)).allSatisfy(c -> assertThat(c.paths()).isLessThanOrEqualTo(1));
    }

    private static ReachabilityMatrix assertSameMatrix(Simulator simulator, String what) {
        ReachabilityMatrix counted = ReachabilityMatrix.of(simulator, MatrixProgress.NONE, ReachabilityMatrix.Paths.COUNTED);
        ReachabilityMatrix walked = ReachabilityMatrix.of(simulator, MatrixProgress.NONE, ReachabilityMatrix.Paths.WALKED);

        assertThat(counted.sources()).isEqualTo(walked.sources());
        assertThat(counted.columns()).isEqualTo(walked.columns());
        for (int row = 0; row < walked.sources().size(); row++) {
            assertThat(counted.cells().get(row)).as("%s, row %s", what, walked.sources().get(row)).isEqualTo(walked.cells().get(row));
        }
        assertThat(counted.traced()).isEqualTo(walked.traced());
        return counted;
    }
}
