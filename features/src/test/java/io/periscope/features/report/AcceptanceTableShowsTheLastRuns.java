package io.periscope.features.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * docs/acceptance.md's results table is what the last runs of both suites reported. It runs in
 * {@code verify}, after both suites have written their reports in the {@code test} phase (see
 * features/pom.xml), never beside them. Without a report that can make the table (a targeted run,
 * a run of some scenarios only, the lab suite run without root) it is skipped, saying why: the
 * table is then neither confirmed nor contradicted.
 */
class AcceptanceTableShowsTheLastRuns {

    private static final Path ROOT = Path.of("..");

    @Test
    void theCommittedTableIsTheOneTheLastRunsMake() throws IOException {
        FeatureCatalog catalog = FeatureCatalog.fromClasspath("features");
        RunReport simulator = usable(catalog, "simulator");
        RunReport lab = usable(catalog, "lab");
        String committed = AcceptanceTable.section(Files.readString(ROOT.resolve("docs/acceptance.md"), StandardCharsets.UTF_8));
        assertThat(committed).as("docs/acceptance.md's results table against the last runs (features/target/acceptance); "
                + "scripts/acceptance-table rewrites it").isEqualTo(AcceptanceTable.render(catalog, simulator, lab));
    }

    private static RunReport usable(FeatureCatalog catalog, String backend) {
        Path file = ROOT.resolve(AcceptanceTable.REPORTS).resolve(backend + ".json");
        Optional<RunReport> report = RunReport.read(file);
        Path shown = file.toAbsolutePath().normalize();
        if (report.isEmpty()) {
            notChecked("no report of the " + backend + " suite at " + shown + "; the table is checked after both suites ran in "
                    + "this build (mvn verify, or scripts/acceptance-table --run)");
        }
        AcceptanceTable.unusable(catalog, report.get(), shown.toString()).ifPresent(AcceptanceTableShowsTheLastRuns::notChecked);
        return report.get();
    }

    /** Skips the check, and says why on the build's output too (the verify execution does not redirect it), not only in the report. */
    private static void notChecked(String why) {
        System.out.println("docs/acceptance.md's results table not checked: " + why);
        abort("not checked: " + why);
    }
}
