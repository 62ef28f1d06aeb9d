package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EveryCommandAnswersHelpAndVersion {

    static List<List<String>> commandPaths() {
        return PeriscopeRun.commandPaths();
    }

    @Test
    void theTreeHoldsTheDocumentedCommands() {
        assertThat(commandPaths()).containsExactlyInAnyOrder(
                List.of(), List.of("trace"), List.of("plan"), List.of("check"), List.of("dns"), List.of("serve"),
                List.of("lab"), List.of("lab", "up"), List.of("lab", "apply"), List.of("lab", "probe"), List.of("lab", "fail"), List.of("lab", "heal"),
                List.of("lab", "failover"), List.of("lab", "bench"), List.of("lab", "down"), List.of("snapshot"));
    }

    @ParameterizedTest
    @MethodSource("commandPaths")
    void helpPrintsTheCommandsUsageAndExitsZero(List<String> path) {
        PeriscopeRun run = PeriscopeRun.of(PeriscopeRun.with(path, "--help"));

        assertThat(run.status()).isZero();
        assertThat(run.out()).startsWith("Usage: " + String.join(" ", PeriscopeRun.with(List.of("periscope"), path.toArray(String[]::new))));
        assertThat(run.out()).contains("--version", "Exit codes:");
        assertThat(run.err()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("commandPaths")
    void versionPrintsTheBuildsVersionAndExitsZero(List<String> path) {
        PeriscopeRun run = PeriscopeRun.of(PeriscopeRun.with(path, "--version"));

        assertThat(run.status()).isZero();
        assertThat(run.out()).startsWith("periscope " + PeriscopeVersion.projectVersion() + "\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void theVersionIsTheOneMavenFilteredIn() {
        assertThat(PeriscopeVersion.projectVersion()).matches("\\d+\\.\\d+\\.\\d+.*").doesNotContain("${");
    }

    @Test
    void fileArgumentsAreDocumentedAsTopologyFiles() {
        assertThat(PeriscopeRun.of("check", "--help").out()).contains("FILE", "topology file");
    }
}
