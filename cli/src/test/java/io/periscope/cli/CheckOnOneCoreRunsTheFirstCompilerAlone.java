package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The JIT flags the launcher gives {@code check}: on one core the first compiler alone (the second one
 * would compile on the core the walk needs), on more both, with the second asked for later. The
 * launcher runs from a copy of the repository's layout whose jar prints the JVM's options; one core is
 * had with {@code taskset}, as a user or a one-CPU machine would give it.
 */
class CheckOnOneCoreRunsTheFirstCompilerAlone {

    @TempDir
    Path root;

    @Test
    void checkPinnedToOneCoreGetsTheFirstCompilerAlone() throws Exception {
        List<String> options = launch(ONE_CORE, "check", "set.yaml");

        assertThat(options).contains("-XX:TieredStopAtLevel=1", "-XX:NewRatio=1")
                .noneMatch(option -> option.startsWith("-XX:Tier4"));
    }

    @Test
    void checkOnSeveralCoresKeepsTheSecondCompilerForWhatStaysHot() throws Exception {
        assumeTrue(cores() > 1, "this machine lets the test run on one core only");

        List<String> options = launch(EVERY_CORE, "check", "set.yaml");

        assertThat(options).contains("-XX:Tier4InvocationThreshold=50000", "-XX:NewRatio=1")
                .doesNotContain("-XX:TieredStopAtLevel=1");
    }

    @Test
    void traceGetsTheFirstCompilerAloneOnAnyNumberOfCores() throws Exception {
        assertThat(launch(EVERY_CORE, "trace", "set.yaml")).contains("-XX:TieredStopAtLevel=1");
        assertThat(launch(ONE_CORE, "trace", "set.yaml")).contains("-XX:TieredStopAtLevel=1");
    }

    /** The CPUs the launcher would count, as it counts them. */
    private static int cores() throws Exception {
        Process nproc = new ProcessBuilder("nproc").start();
        assertThat(nproc.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return Integer.parseInt(new String(nproc.getInputStream().readAllBytes()).strip());
    }

    private static final boolean ONE_CORE = true;
    private static final boolean EVERY_CORE = false;

    /** The JVM options the launcher started the jar with, running {@code arguments} on core 0 alone or on every core. */
    private List<String> launch(boolean oneCore, String... arguments) throws Exception {
        return LauncherLayout.jvmOptions(root, oneCore, arguments);
    }
}
