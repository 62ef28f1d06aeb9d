package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab fail}, {@code lab heal}, {@code lab failover}, {@code lab bench} and {@code lab apply} on a topology no lab was built from:
 * exit 2 with a message that says what to run first, nothing changed, no stack trace. (Not root:
 * the same exit, saying root is needed.)
 */
class LabFailHealAndFailoverRefuseWithoutALab {

    @TempDir
    Path directory;

    private String topology() throws IOException {
        // A name of this test's own: a lab of the shipped example may be up on this machine.
        Path file = directory.resolve("never-up.yaml");
        Files.writeString(file, Files.readString(Path.of("..", "examples", "mag-globalnet.yaml"))
                .replace("name: mag-globalnet\n", "name: never-up-" + ProcessHandle.current().pid() + "\n"));
        return file.toString();
    }

    @Test
    void failingANodeOfNoLabSaysToBringItUpFirst() throws IOException {
        PeriscopeRun run = PeriscopeRun.of("lab", "fail", topology(), "cluster1/gw-1", "--mode", "blackhole");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).containsAnyOf("is up; run 'lab up", "needs root").doesNotContain("\tat ");
    }

    @Test
    void healingANodeOfNoLabSaysToBringItUpFirst() throws IOException {
        PeriscopeRun run = PeriscopeRun.of("lab", "heal", topology(), "cluster1/gw-1");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).containsAnyOf("is up; run 'lab up", "needs root").doesNotContain("\tat ");
    }

    @Test
    void measuringAFailoverWithNoLabSaysToBringItUpFirst() throws IOException {
        PeriscopeRun run = PeriscopeRun.of("lab", "failover", topology(), "--fail", "cluster1/gw-1");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).containsAnyOf("is up; run 'lab up", "needs root").doesNotContain("\tat ");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void benchingNoLabSaysToBringItUpFirst() throws IOException {
        PeriscopeRun run = PeriscopeRun.of("lab", "bench", topology(), "--flows", "4", "--seconds", "2");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).containsAnyOf("is up; run 'lab up", "needs root").doesNotContain("\tat ");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void benchFlowsAndSecondsOutsideTheirRangesAreUsageErrors() throws IOException {
        PeriscopeRun noFlows = PeriscopeRun.of("lab", "bench", topology(), "--flows", "0");
        PeriscopeRun tooLong = PeriscopeRun.of("lab", "bench", topology(), "--seconds", "601");
        PeriscopeRun notANumber = PeriscopeRun.of("lab", "bench", topology(), "--flows", "many");

        assertThat(noFlows.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(noFlows.err()).contains("--flows must be between 1 and 1024, not 0");
        assertThat(tooLong.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(tooLong.err()).contains("--seconds must be between 1 and 600, not 601");
        assertThat(notANumber.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(notANumber.err()).contains("--flows");
    }

    @Test
    void applyingAnEditToNoLabSaysToBringItUpFirst() throws IOException {
        PeriscopeRun run = PeriscopeRun.of("lab", "apply", topology());

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).containsAnyOf("is up; run 'lab up", "needs root").doesNotContain("\tat ");
    }

    @Test
    void anUnknownModeIsNamedWithTheModesThereAre() throws IOException {
        PeriscopeRun run = PeriscopeRun.of("lab", "fail", topology(), "cluster1/gw-1", "--mode", "meltdown");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("unknown failure mode 'meltdown'", "crash, blackhole, agent-stop");
    }
}
