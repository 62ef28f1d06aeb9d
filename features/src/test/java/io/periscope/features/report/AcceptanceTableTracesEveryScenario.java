package io.periscope.features.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/acceptance.md traces the seed documents' behaviour to scenarios. Every scenario appears there,
 * with the status it really has on the simulator (pending exactly when tagged @pending) and in the lab, so the table
 * cannot drift from the feature files.
 */
class AcceptanceTableTracesEveryScenario {

    private static final Path TABLE = Path.of("..", "docs", "acceptance.md");

    private final FeatureCatalog catalog = FeatureCatalog.fromClasspath("features");

    /** The | behaviour | scenario | simulator | lab | rows under "## Traceability", cells trimmed. */
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
    void everyScenarioIsTracedWithItsSimulatorStatus() throws IOException {
        List<String[]> rows = rows();
        for (FeatureCatalog.Entry scenario : catalog.scenarios()) {
            List<String[]> tracing = rows.stream().filter(r -> r.length == 4 && r[1].contains(scenario.name())).toList();
            assertThat(tracing).as("rows of docs/acceptance.md naming '%s'", scenario.name()).isNotEmpty();
            String expected = scenario.pending() ? "pending" : "passes";
            assertThat(tracing).as("simulator status of '%s'", scenario.name()).allSatisfy(r -> assertThat(r[2]).startsWith(expected));
        }
    }

    /**
     * The lab column: pending as on the simulator, "simulator only" exactly when the scenario is tagged
     * so (the lab suite skips it, giving the reason), and otherwise "passes", which the lab suite run as
     * root checks.
     */
    @Test
    void everyScenarioIsTracedWithItsLabStatus() throws IOException {
        List<String[]> rows = rows();
        for (FeatureCatalog.Entry scenario : catalog.scenarios()) {
            String expected = scenario.pending() ? "pending" : scenario.simulatorOnly() ? "simulator only" : "passes";
            assertThat(rows.stream().filter(r -> r.length == 4 && r[1].contains(scenario.name())).toList())
                    .as("lab status of '%s'", scenario.name()).isNotEmpty().allSatisfy(r -> assertThat(r[3]).startsWith(expected));
        }
    }

    @Test
    void everyRowNamesAnExistingScenario() throws IOException {
        List<String> names = catalog.scenarios().stream().map(FeatureCatalog.Entry::name).toList();
        for (String[] row : rows()) {
            if (row.length == 4 && !row[1].startsWith("none")) {
                assertThat(names).as("scenario of the row '%s'", row[0]).anySatisfy(n -> assertThat(row[1]).contains(n));
            }
        }
    }
}
