package io.periscope.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each command's help lists the exit codes it can give, worded for it, and no sentence is cut short. */
class HelpSaysWhatEachCommandExitsWith {

    @Test
    void theCommandListShowsCheckInAWholeSentence() {
        String help = PeriscopeRun.of("--help").out();
        String check = help.substring(help.indexOf("  check "), help.indexOf("  lab "));

        assertThat(check.strip()).endsWith(".").doesNotEndWith(",");
    }

    @Test
    void commandsThatCompareNothingDoNotPromiseExitOne() {
        for (List<String> path : List.of(List.of("plan"), List.of("lab", "up"), List.of("lab", "down"), List.of("snapshot"))) {
            String help = PeriscopeRun.of(PeriscopeRun.with(path, "--help")).out();
            String exitCodes = help.substring(help.indexOf("Exit codes:"));

            assertThat(exitCodes).as(String.join(" ", path)).containsPattern("\n  0 +").containsPattern("\n  2 +").containsPattern("\n  3 +")
                    .doesNotContainPattern("\n  1 +").doesNotContain("expectation");
        }
    }

    @Test
    void checkAndLabProbeSayWhatTheirExitOneMeans() {
        // The column is as wide as the longest code listed, so the spaces after "1" vary.
        assertThat(PeriscopeRun.of("check", "--help").out()).containsPattern("\n  1 +a flow's expect did not hold, or a Globalnet object got no");
        assertThat(PeriscopeRun.of("lab", "probe", "--help").out()).containsPattern("\n  1 +real packets disagreed with the simulation");
        assertThat(PeriscopeRun.of("trace", "--help").out()).contains("whatever their expect says").doesNotContainPattern("\n  1 +");
    }

    @Test
    void snapshotsUsageShowsItsRequiredOptionsAsRequired() {
        String usage = PeriscopeRun.of("snapshot", "--help").out();

        assertThat(usage).startsWith("Usage: periscope snapshot --kubeconfig=FILE -o=FILE ");
    }
}
