package io.periscope.model.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * One file per rule under {@code bad-topologies/}, each with exactly one mistake. The file's header says
 * which field path the error must name and a phrase its problem (and optionally its fix) must contain;
 * the line marked {@code # <-} is the line the error must point at (no marker: no line, as for an empty
 * file). A file must produce that one error and nothing else, so no rule drags spurious errors along.
 */
class BadTopologiesReportTheirMistake {

    private static final String MARKER = "# <-";

    record Expectation(Path file, int line, String path, String problem, String fix) {
        @Override
        public String toString() {
            return file.getFileName().toString();
        }
    }

    static Stream<Expectation> badTopologies() throws IOException, URISyntaxException {
        Path directory = Path.of(Objects.requireNonNull(BadTopologiesReportTheirMistake.class.getResource("/bad-topologies")).toURI());
        try (Stream<Path> files = Files.list(directory)) {
            List<Path> sorted = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
            return sorted.stream().map(BadTopologiesReportTheirMistake::expectation).toList().stream();
        }
    }

    private static Expectation expectation(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        int line = 0;
        String path = null;
        String problem = null;
        String fix = "";
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            if (text.contains(MARKER)) {
                line = i + 1;
            } else if (text.startsWith("# path:")) {
                path = text.substring("# path:".length()).trim();
            } else if (text.startsWith("# problem:")) {
                problem = text.substring("# problem:".length()).trim();
            } else if (text.startsWith("# fix:")) {
                fix = text.substring("# fix:".length()).trim();
            }
        }
        if (path == null || problem == null || problem.isEmpty()) {
            throw new IllegalStateException(file + " lacks its '# path:' or '# problem:' header");
        }
        return new Expectation(file, line, path, problem, fix);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTopologies")
    void reportsExactlyItsOneMistakeAtTheMarkedLineWithPathAndMessage(Expectation expected) {
        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.load(expected.file()));

        assertThat(failure).as("loading %s must fail", expected.file().getFileName()).isNotNull();
        assertThat(failure.errors()).as(failure.report()).hasSize(1);
        TopologyError error = failure.errors().getFirst();
        assertThat(error.file()).isEqualTo(expected.file().toString());
        assertThat(error.line()).as(error.format()).isEqualTo(expected.line());
        assertThat(error.path()).as(error.format()).isEqualTo(expected.path());
        assertThat(error.problem()).contains(expected.problem());
        assertThat(error.fix()).isNotBlank().contains(expected.fix());
        if (error.line() > 0) {
            assertThat(error.column()).as(error.format()).isPositive();
        }
    }

    @Test
    void everyRuleHasItsBadFile() throws IOException, URISyntaxException {
        assertThat(badTopologies().count()).isGreaterThanOrEqualTo(100);
    }
}
