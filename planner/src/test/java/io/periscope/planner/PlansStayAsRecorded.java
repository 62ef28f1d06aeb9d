package io.periscope.planner;

import io.periscope.model.generate.RandomClusterSet;
import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner's output is recorded (planner/src/test/resources/recorded-plans: one SHA-256 of the
 * complete text of every host's plan and of each other part, {@link PlanFingerprint}) for every
 * example and for generated sets, large and small, Globalnet 2.0, legacy and off. A change made for
 * speed or memory must leave every one of them as it was. A change meant to alter the plan records
 * them again with {@code -Dperiscope.recordPlans=true} and shows the difference in review.
 */
class PlansStayAsRecorded {

    static final Path RECORDED = Path.of("src", "test", "resources", "recorded-plans");

    record Case(String name, Supplier<ClusterSet> set) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".yaml")).sorted()
                    .forEach(f -> cases.add(new Case("example-" + f.replace(".yaml", ""), () -> PlannedExamples.load(f))));
        }
        cases.add(new Case("synthetic-v2", () -> new SyntheticClusterSet(6, 12, 2, 300, 30, 5, GlobalnetMode.V2).build()));
        cases.add(new Case("synthetic-legacy", () -> new SyntheticClusterSet(3, 8, 1, 200, 20, 3, GlobalnetMode.LEGACY).build()));
        for (long seed = 0; seed < 6; seed++) {
            long s = seed;
            cases.add(new Case("random-" + seed + "-globalnet", () -> RandomClusterSet.generate(s, true)));
            cases.add(new Case("random-" + seed + "-plain", () -> RandomClusterSet.generate(s, false)));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyHostsPlanIsTheRecordedOne(Case c) throws IOException {
        Map<String, String> digests = PlanFingerprint.of(Planner.plan(c.set().get()));
        Path file = RECORDED.resolve(c.name() + ".sha256");
        if (Boolean.getBoolean("periscope.recordPlans")) {
            Files.createDirectories(RECORDED);
            StringBuilder text = new StringBuilder();
            digests.forEach((what, digest) -> text.append(digest).append("  ").append(what).append('\n'));
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
        assertThat(file).as("recorded plan of %s (record with -Dperiscope.recordPlans=true)", c.name()).exists();
        Map<String, String> recorded = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            recorded.put(line.substring(66), line.substring(0, 64));
        }
        assertThat(digests).containsExactlyEntriesOf(recorded);
    }
}
