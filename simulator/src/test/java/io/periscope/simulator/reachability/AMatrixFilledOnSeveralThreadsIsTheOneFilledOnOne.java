package io.periscope.simulator.reachability;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The columns of a matrix shared among threads give the cells, the count of flows traced and the count
 * of branches folded that one thread gives: on every shipped example, on generated sets with classes,
 * hairpins and Globalnet, and on a set whose services outnumber the threads many times over.
 */
class AMatrixFilledOnSeveralThreadsIsTheOneFilledOnOne {

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleGivesTheSameMatrixOnFourThreads(Path example) throws IOException, TopologyException {
        ClusterSet set = TopologyLoader.parse(Files.readString(example), example.getFileName().toString());

        assertSameOnOneAndFour(new Simulator(Planner.plan(set)), example.getFileName().toString());
    }

    static IntStream seeds() {
        return IntStream.range(0, 12);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void generatedSetsGiveTheSameMatrixOnFourThreads(int seed) {
        ClusterSet set = AlikePodsGiveTheMatrixOfEveryPodTraced.generate(new Random(seed));

        assertSameOnOneAndFour(new Simulator(Planner.plan(set)), "seed " + seed);
    }

    @Test
    void manyServicesSharedAmongThreadsReportProgressInOrder() {
        // 3 clusters x 6 services: 18 columns taken by 3 threads; backends folded (4 per service).
        ClusterSet set = new SyntheticClusterSet(3, 3, 2, 24, 6, 1, GlobalnetMode.V2, 4).build();
        Simulator simulator = new Simulator(Planner.plan(set));
        RecordedProgress progress = new RecordedProgress();

        ReachabilityMatrix matrix = ReachabilityMatrix.of(simulator, progress, ReachabilityMatrix.Paths.COUNTED, folded -> { }, 3);

        assertThat(matrix.columns()).hasSize(18);
        assertThat(progress.reported()).isSorted().last().isEqualTo(progress.total());
        assertThat(progress.total()).isEqualTo((long) matrix.sources().size() * matrix.columns().size());
        assertSameOnOneAndFour(simulator, "18 services");
    }

    private static void assertSameOnOneAndFour(Simulator simulator, String what) {
        long[] foldedOnOne = {-1};
        long[] foldedOnFour = {-1};
        ReachabilityMatrix one = ReachabilityMatrix.of(simulator, MatrixProgress.NONE, ReachabilityMatrix.Paths.COUNTED,
                folded -> foldedOnOne[0] = folded, 1);
        ReachabilityMatrix four = ReachabilityMatrix.of(simulator, MatrixProgress.NONE, ReachabilityMatrix.Paths.COUNTED,
                folded -> foldedOnFour[0] = folded, 4);

        assertThat(four.sources()).as(what).isEqualTo(one.sources());
        assertThat(four.columns()).as(what).isEqualTo(one.columns());
        for (int row = 0; row < one.sources().size(); row++) {
            assertThat(four.cells().get(row)).as("%s, row %s", what, one.sources().get(row)).isEqualTo(one.cells().get(row));
        }
        assertThat(four.traced()).as(what).isEqualTo(one.traced());
        assertThat(foldedOnFour[0]).as(what).isEqualTo(foldedOnOne[0]);
    }
}
