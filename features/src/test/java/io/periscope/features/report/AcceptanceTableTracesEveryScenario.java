package io.periscope.features.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/acceptance.md traces the seed documents' behaviour to scenarios: every scenario appears in its
 * traceability tables, and every row names a scenario that exists, so the tables cannot drift from the
 * feature files. How each scenario fared is the generated results table's business
 * ({@link AcceptanceTableShowsTheLastRuns}), not these tables'.
 */
class AcceptanceTableTracesEveryScenario {

    private static final Path TABLE = Path.of("..", "docs", "acceptance.md");

    private final FeatureCatalog catalog = FeatureCatalog.fromClasspath("features");

    /** The | behaviour | scenario | rows under "## Traceability", cells trimmed. */
    private static List<String[]> rows() throws IOException {
        List<String[]> rows = new ArrayList<>();
        boolean traceability = false;
        for (String line : Files.readAllLines(TABLE)) {
            if (line.startsWith("## ")) {
                traceability = line.equals("## Traceability");
            }
            if (traceability && line.startsWith("|") && !line.startsWith("| ---") && !line.startsWith("| behaviour")) {
                String[] cells = line.substring(1, line.length() - 1).split("(?<!\\\\)\\|", -1);
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = cells[i].trim();
                }
                rows.add(cells);
            }
        }
        return rows;
    }

    @Test
    void everyScenarioIsTraced() throws IOException {
        List<String[]> rows = rows();
        // A row with simulator and lab columns is from before the statuses were generated: they now live in
        // "Results of the last runs" only, where no one writes them by hand.
        assertThat(rows).allSatisfy(r -> assertThat(r).as("docs/acceptance.md's traceability row '%s' has two columns, behaviour "
                + "and scenario (statuses are generated under 'Results of the last runs')", String.join(" | ", r)).hasSize(2));
        for (FeatureCatalog.Entry scenario : catalog.scenarios()) {
            assertThat(rows.stream().filter(r -> r[1].contains(scenario.name())).toList())
                    .as("rows of docs/acceptance.md naming '%s'", scenario.name()).isNotEmpty();
        }
    }

    @Test
    void everyRowNamesAnExistingScenario() throws IOException {
        List<String> names = catalog.scenarios().stream().map(FeatureCatalog.Entry::name).toList();
        for (String[] row : rows()) {
            if (row.length == 2 && !row[1].startsWith("none")) {
                assertThat(names).as("scenario of the row '%s'", row[0]).anySatisfy(n -> assertThat(row[1]).contains(n));
            }
        }
    }
}
