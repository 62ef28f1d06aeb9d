package io.periscope.features.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A pending scenario is a promise not kept yet: its description must say why, so the report can list it. */
class EveryPendingScenarioSaysWhy {

    private final FeatureCatalog catalog = FeatureCatalog.fromClasspath("features");

    @Test
    void everyPendingScenarioHasADescription() {
        // None is pending today; this guards the next one.
        assertThat(catalog.pending()).allSatisfy(entry ->
                assertThat(entry.description()).as("reason of pending scenario '%s' in %s", entry.name(), entry.file())
                        .hasSizeGreaterThan(20));
    }

    @Test
    void everySimulatorOnlyScenarioSaysWhyTheLabCannotRunIt() {
        assertThat(catalog.scenarios().stream().filter(FeatureCatalog.Entry::simulatorOnly).toList()).isNotEmpty().allSatisfy(entry ->
                assertThat(entry.simulatorOnlyReason()).as("why the lab cannot run '%s' in %s", entry.name(), entry.file())
                        .hasValueSatisfying(reason -> assertThat(reason).hasSizeGreaterThan(40)));
    }

    @Test
    void theFiveSeedDocumentsHaveAFeatureFileEach() {
        // links.feature is issue 19's (link properties and seed 004's performance claim), not a sixth seed.
        assertThat(catalog.scenarios()).extracting(FeatureCatalog.Entry::file).containsOnly(
                "globalnet.feature", "connectivity-and-cable-drivers.feature", "globalnet-2.feature", "globalnet-ovn.feature",
                "multiple-active-gateways.feature", "links.feature");
    }

    @Test
    void scenarioNamesAreUnique() {
        assertThat(catalog.scenarios()).extracting(FeatureCatalog.Entry::name).doesNotHaveDuplicates();
    }
}
