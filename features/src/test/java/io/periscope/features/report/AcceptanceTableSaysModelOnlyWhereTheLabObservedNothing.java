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
                  @kubernetes
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
        RunReport simulator = new RunReport("simulator", "t", List.of(run("probed", 3, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY)),
                run("planned", 6, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY)),
                run("not in the lab", 9, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY)), pending()));
        RunReport lab = new RunReport("lab", "t", List.of(
                run("probed", 3, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY, Evidence.KERNEL_STATE, Evidence.REAL_PACKETS)),
                run("planned", 6, RunReport.Status.passed, "", Set.of(Evidence.MODEL_ONLY)),
                run("not in the lab", 9, RunReport.Status.skipped, "Simulator only: the lab has no such thing (it never had).", Set.of()), pending()));
        RunReport kubernetes = new RunReport(LabBackend.KUBERNETES_ON_LAB, "agents in the JVM", "t",
                List.of(run("probed", 3, RunReport.Status.passed, "", Set.of(Evidence.API_OBJECTS, Evidence.REAL_PACKETS))));

        String table = AcceptanceTable.render(catalog(), simulator, lab, kubernetes);

        assertThat(table).contains("Simulator: 3 pass, 1 pending. Lab: 1 pass, 1 model only, 1 simulator only, 1 pending. "
                        + "Kubernetes on the lab (the @kubernetes scenarios): 1 pass.")
                .contains("The kubernetes-on-lab backend: agents in the JVM.")
                .contains("| probed | passes | passes | real packets, kernel state, model | passes | real packets, API objects |")
                .contains("| planned | passes | model only | model | — | — |")
                .contains("| not in the lab | passes | simulator only: the lab has no such thing | — | — | — |")
                .contains("- 1 scenario: the lab has no such thing (it never had).")
                .contains("| waits | pending | pending | — | — | — |")
                .contains("- `a.feature`, waits: Pending: not built yet.");
    }

    @Test
    void aReportOfSomeScenariosOnlyOrOfALabThatCouldNotRunCannotMakeTheTable() throws IOException {
        FeatureCatalog catalog = catalog();
        RunReport filtered = new RunReport("simulator", "t", List.of(run("probed", 3, RunReport.Status.passed, "", Set.of()), pending()));
        assertThat(AcceptanceTable.unusable(catalog, filtered, "simulator.json")).hasValueSatisfying(why ->
                assertThat(why).contains("'planned' (0 runs of 1)"));

        String notRoot = LabBackend.NEEDS + ": this process runs as uid 1000";
        RunReport notAsRoot = new RunReport("lab", "t", List.of(run("probed", 3, RunReport.Status.skipped, notRoot, Set.of()),
                run("planned", 6, RunReport.Status.skipped, notRoot, Set.of()),
                run("not in the lab", 9, RunReport.Status.skipped, notRoot, Set.of()), pending()));
        assertThat(AcceptanceTable.unusable(catalog, notAsRoot, "lab.json")).hasValueSatisfying(why ->
                assertThat(why).contains("could not use the lab"));
    }

    @Test
    void theKubernetesOnLabReportMustHoldEveryKubernetesScenarioAndNoOther() throws IOException {
        FeatureCatalog catalog = catalog();
        RunReport selected = new RunReport(LabBackend.KUBERNETES_ON_LAB, "t", List.of(run("probed", 3, RunReport.Status.passed, "", Set.of())));
        assertThat(AcceptanceTable.unusable(catalog, selected, "kubernetes-on-lab.json")).isEmpty();

        RunReport none = new RunReport(LabBackend.KUBERNETES_ON_LAB, "t", List.of());
        assertThat(AcceptanceTable.unusable(catalog, none, "kubernetes-on-lab.json")).hasValueSatisfying(why ->
                assertThat(why).contains("'probed' (0 runs of 1)"));

        RunReport more = new RunReport(LabBackend.KUBERNETES_ON_LAB, "t", List.of(run("probed", 3, RunReport.Status.passed, "", Set.of()),
                run("planned", 6, RunReport.Status.passed, "", Set.of())));
        assertThat(AcceptanceTable.unusable(catalog, more, "kubernetes-on-lab.json")).hasValueSatisfying(why ->
                assertThat(why).contains("'planned' (1 runs of 0)"));
    }

    @Test
    void anOutlinesTaggedExamplesAreItsKubernetesRuns() throws IOException {
        Files.writeString(directory.resolve("b.feature"), """
                Feature: Seed B
                  Scenario Outline: fails <option>
                    Given <option>

                    @kubernetes
                    Examples:
                      | option |
                      | one    |

                    Examples:
                      | option |
                      | two    |
                      | three  |
                """);
        FeatureCatalog.Entry outline = FeatureCatalog.read(directory).scenarios().stream().filter(e -> e.file().equals("b.feature"))
                .findFirst().orElseThrow();

        assertThat(outline.runs()).isEqualTo(3);
        assertThat(outline.kubernetesRuns()).isEqualTo(1);
    }

    @Test
    void aTableOfTheTwoBackendMarkerIsRewrittenWithTheThreeBackendOne() {
        String older = "<!-- BEGIN results of the last runs: generated by scripts/acceptance-table from "
                + "features/target/acceptance/simulator.json and lab.json; do not edit by hand -->";
        String document = "prose\n" + older + "\nold table\n" + AcceptanceTable.END + "\n";

        assertThat(AcceptanceTable.section(document)).as("an older section never equals a table of three backends").startsWith(older);
        assertThat(AcceptanceTable.replace(document, "new table\n")).isEqualTo("prose\n" + AcceptanceTable.BEGIN + "\nnew table\n"
                + AcceptanceTable.END + "\n");
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
