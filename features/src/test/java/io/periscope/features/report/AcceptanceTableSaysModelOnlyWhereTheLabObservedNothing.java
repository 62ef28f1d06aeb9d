package io.periscope.features.report;

import io.periscope.features.backend.Evidence;
import io.periscope.features.backend.LabBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AcceptanceTableSaysModelOnlyWhereTheLabObservedNothing {

    @TempDir
    Path directory;

    private FeatureCatalog catalog() throws IOException {
        Files.writeString(directory.resolve("a.feature"), """
                Feature: Seed A
                  Scenario: probed
                    Given something

                  Scenario: planned
                    Given something

                  @simulator-only
                  Scenario: not in the lab
                    Simulator only: the lab has no such thing (it never had).
                    Given something

                  @pending
                  Scenario: waits
                    Pending: not built yet.
                    Given something
                """);
        return FeatureCatalog.read(directory);
    }

    private static RunReport.ScenarioRun run(String name, int line, RunReport.Status status, String reason, Set<Evidence> evidence) {
        return new RunReport.ScenarioRun("a.feature", "Seed A", name, name, line, List.of(), status, reason, evidence, List.of());
    }

    private static RunReport.ScenarioRun pending() {
        return run("waits", 0, RunReport.Status.pending, "Pending: not built yet.", Set.of());
    }

    @Test
    void aLabScenarioAnsweredOnlyByTheModelIsModelOnlyAndOneWithPacketsPasses() throws IOException {
        RunReport simulator = new RunReport("simulator", "t", List.of(run("probed", 2, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY)),
                run("planned", 5, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY)),
                run("not in the lab", 8, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY)), pending()));
        RunReport lab = new RunReport("lab", "t", List.of(
                run("probed", 2, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY, Evidence.KERNEL_STATE, Evidence.REAL_PACKETS)),
                run("planned", 5, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY)),
                run("not in the lab", 8, RunReport.Status.skipped, "Simulator only: the lab has no such thing (it never had).", Set.of()), pending()));

        String table = AcceptanceTable.render(catalog(), simulator, lab);

        assertThat(table).contains("Simulator: 3 pass, 1 pending. Lab: 1 pass, 1 model only, 1 simulator only, 1 pending.")
                .contains("| probed | passes | passes | real packets, kernel state, model |")
                .contains("| planned | passes | model only | model |")
                .contains("| not in the lab | passes | simulator only: the lab has no such thing | — |")
                .contains("- 1 scenario: the lab has no such thing (it never had).")
                .contains("| waits | pending | pending | — |")
                .contains("- `a.feature`, waits: Pending: not built yet.");
    }

    @Test
    void aReportOfSomeScenariosOnlyOrOfALabThatCouldNotRunCannotMakeTheTable() throws IOException {
        FeatureCatalog catalog = catalog();
        RunReport filtered = new RunReport("simulator", "t", List.of(run("probed", 2, RunReport.Status.passed, "", Set.of()), pending()));
        assertThat(AcceptanceTable.unusable(catalog, filtered, "simulator.json")).hasValueSatisfying(why ->
                assertThat(why).contains("'planned' (0 runs of 1)"));

        String notRoot = LabBackend.NEEDS + ": this process runs as uid 1000";
        RunReport notAsRoot = new RunReport("lab", "t", List.of(run("probed", 2, RunReport.Status.skipped, notRoot, Set.of()),
                run("planned", 5, RunReport.Status.skipped, notRoot, Set.of()),
                run("not in the lab", 8, RunReport.Status.skipped, notRoot, Set.of()), pending()));
        assertThat(AcceptanceTable.unusable(catalog, notAsRoot, "lab.json")).hasValueSatisfying(why ->
                assertThat(why).contains("could not use the lab"));
    }

    @Test
    void onlyTheSectionBetweenTheMarkersIsRewritten() {
        String document = "# Prose\n\nkept\n\n" + AcceptanceTable.BEGIN + "\nold table\n" + AcceptanceTable.END + "\n\nmore prose\n";

        String rewritten = AcceptanceTable.replace(document, "new table\n");

        assertThat(rewritten).isEqualTo("# Prose\n\nkept\n\n" + AcceptanceTable.BEGIN + "\nnew table\n" + AcceptanceTable.END + "\n\nmore prose\n");
        assertThat(AcceptanceTable.section(rewritten)).isEqualTo("new table\n");
        assertThatThrownBy(() -> AcceptanceTable.replace("no markers", "t")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theReportSurvivesItsJson() {
        RunReport report = new RunReport("lab", "2026-11-28T00:00:00Z", List.of(new RunReport.ScenarioRun("a.feature", "Seed A", "probed",
                "probed", 2, List.of("@x"), RunReport.Status.passed, "", Set.of(Evidence.REAL_PACKETS),
                List.of(new RunReport.StepRun(3, "Then it works", "passed", Set.of(Evidence.REAL_PACKETS))))));
        Path file = directory.resolve("out/lab.json");

        report.write(file);

        assertThat(RunReport.read(file)).contains(report);
        assertThat(RunReport.read(directory.resolve("absent.json"))).isEmpty();
    }
}
