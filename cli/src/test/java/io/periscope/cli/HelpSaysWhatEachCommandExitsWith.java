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

    /**
     * Walks the command tree, so a command added without its own entry in {@link ExitCodeHelp} fails here
     * instead of inheriting the root's list, whose exit 1 belongs to check and lab probe.
     */
    @Test
    void everyCommandListsItsOwnExitCodes() {
        String rootOne = ExitCodeHelp.meanings("").get("1");
        for (List<String> path : PeriscopeRun.commandPaths()) {
            if (path.isEmpty()) {
                continue;
            }
            String name = String.join(" ", path);
            String help = PeriscopeRun.of(PeriscopeRun.with(path, "--help")).out();
            String exitCodes = help.substring(help.indexOf("Exit codes:"));

            assertThat(ExitCodeHelp.meanings(name)).as(name + " has an entry in ExitCodeHelp").isNotEmpty();
            assertThat(exitCodes).as(name).containsPattern("\n  2 +").containsPattern("\n  3 +")
                    .doesNotContain(rootOne.substring(0, 40));
            boolean comparesWithSomething = name.equals("check") || name.equals("lab probe") || name.equals("lab bench");
            if (!comparesWithSomething) {
                assertThat(exitCodes).as(name + " compares nothing, so never exits 1").doesNotContainPattern("\n  1 +");
            }
        }
    }

    @Test
    void commandsThatRunUntilInterruptedSaySo() {
        assertThat(PeriscopeRun.of("serve", "--help").out()).containsPattern("\n  130 +stopped by Ctrl-C")
                .doesNotContainPattern("\n  0 +");
        assertThat(PeriscopeRun.of("dns", "--help").out()).containsPattern("\n  0 +the answer or the zone was printed")
                .containsPattern("\n  130 +");
    }

    @Test
    void labFailHealAndFailoverNameTheirRefusals() {
        // Help wraps its lines at the terminal's width: compare the words, not the line breaks.
        assertThat(helpText("lab", "fail")).contains(" 0 the node is failed").contains("another file, or this one before an edit, built it");
        assertThat(helpText("lab", "heal")).contains(" 0 the node is healed").contains("the node is not failed");
        assertThat(helpText("lab", "failover")).contains(" 0 the streams were measured").contains("the file has no UDP flow");
        assertThat(helpText("lab", "bench")).contains(" 0 the flows were measured and every one took a route the simulator predicts")
                .contains(" 1 real packets disagreed with the simulation").contains("no TCP flow between clusters");
        assertThat(helpText("lab", "apply")).contains(" 0 the running lab took the edited file and every running node has converged")
                .contains("the edit changes what 'lab up' built");
    }

    private static String helpText(String... command) {
        return PeriscopeRun.of(PeriscopeRun.with(List.of(command), "--help")).out().replaceAll("\\s+", " ");
    }

    @Test
    void commandsThatCompareNothingDoNotPromiseExitOne() {
        for (List<String> path : List.of(List.of("plan"), List.of("lab", "up"), List.of("lab", "apply"), List.of("lab", "down"), List.of("snapshot"))) {
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
