package io.periscope.features.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * docs/acceptance.md's results table is what the last runs of the three suites (simulator, lab,
 * kubernetes-on-lab) reported. It runs in
 * {@code verify}, after the suites have written their reports in the {@code test} phase (see
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
        RunReport kubernetes = usable(catalog, io.periscope.features.backend.LabBackend.KUBERNETES_ON_LAB);
        String committed = AcceptanceTable.section(Files.readString(ROOT.resolve("docs/acceptance.md"), StandardCharsets.UTF_8));
        String runs = AcceptanceTable.render(catalog, simulator, lab, kubernetes);
        if (!committed.equals(runs)) {
            fail("docs/acceptance.md's results table is not what the last runs reported (features/target/acceptance); "
                    + "scripts/acceptance-table rewrites it. " + firstDifference(committed, runs));
        }
    }

    private static String firstDifference(String committed, String runs) {
        List<String> was = committed.lines().toList();
        List<String> is = runs.lines().toList();
        for (int i = 0; i < Math.max(was.size(), is.size()); i++) {
            String a = i < was.size() ? was.get(i) : "(nothing)";
            String b = i < is.size() ? is.get(i) : "(nothing)";
            if (!a.equals(b)) {
                return "First difference, line " + (i + 1) + " of the table:\n  committed: " + a + "\n  the runs:  " + b;
            }
        }
        return "They differ in line endings only.";
    }

    private static RunReport usable(FeatureCatalog catalog, String backend) {
        Path file = ROOT.resolve(AcceptanceTable.REPORTS).resolve(backend + ".json");
        Optional<RunReport> report = RunReport.read(file);
        Path shown = file.toAbsolutePath().normalize();
        if (report.isEmpty()) {
            notChecked("no report of the " + backend + " suite at " + shown + "; the table is checked after the three suites ran "
                    + "in this build (mvn verify, or scripts/acceptance-table --run)");
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
