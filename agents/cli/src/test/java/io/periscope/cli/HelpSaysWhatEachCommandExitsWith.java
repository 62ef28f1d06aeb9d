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

            assertThat(exitCodes).as(String.join(" ", path)).contains("  0   ", "  2   ", "  3   ")
                    .doesNotContain("  1   ").doesNotContain("expectation");
        }
    }

    @Test
    void checkAndLabProbeSayWhatTheirExitOneMeans() {
        assertThat(PeriscopeRun.of("check", "--help").out()).contains("1   a flow's expect did not hold, or a Globalnet object got no");
        assertThat(PeriscopeRun.of("lab", "probe", "--help").out()).contains("1   real packets disagreed with the simulation");
        assertThat(PeriscopeRun.of("trace", "--help").out()).contains("whatever their expect says").doesNotContain("  1   ");
    }

    @Test
    void snapshotsUsageShowsItsRequiredOptionsAsRequired() {
        String usage = PeriscopeRun.of("snapshot", "--help").out();

        assertThat(usage).startsWith("Usage: periscope snapshot --kubeconfig=FILE -o=FILE ");
    }
}
