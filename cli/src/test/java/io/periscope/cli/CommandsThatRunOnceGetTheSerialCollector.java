package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The collector the launcher asks for: the serial one for a command that runs once and exits (a
 * one-thread batch job that G1's concurrent threads, barriers and heap growth only slow down), the
 * JVM's own choice for what serves until it is stopped. The launcher runs from a copy of the
 * repository's layout whose program prints the JVM's options.
 */
class CommandsThatRunOnceGetTheSerialCollector {

    private static final String SERIAL = "-XX:+UseSerialGC";

    @TempDir
    Path root;

    @Test
    void traceCheckPlanAndAQuestionToTheDnsGetTheSerialCollector() throws Exception {
        assertThat(launch("trace", "set.yaml")).contains(SERIAL);
        assertThat(launch("trace", "set.yaml", "--html", "out.html")).contains(SERIAL);
        assertThat(launch("check", "set.yaml")).contains(SERIAL);
        assertThat(launch("plan", "set.yaml")).contains(SERIAL);
        assertThat(launch("dns", "set.yaml", "nginx.default.svc.clusterset.local")).contains(SERIAL);
        assertThat(launch("--version")).contains(SERIAL);
    }

    @Test
    void whatServesUntilStoppedKeepsTheJvmsChoice() throws Exception {
        assertThat(launch("serve", "set.yaml")).doesNotContain(SERIAL);
        assertThat(launch("lab", "up", "set.yaml")).doesNotContain(SERIAL);
        assertThat(launch("dns", "set.yaml", "--serve", "127.0.0.1:5353")).doesNotContain(SERIAL);
        assertThat(launch("dns", "set.yaml", "--serve=127.0.0.1:5353")).doesNotContain(SERIAL);
    }

    private List<String> launch(String... arguments) throws Exception {
        return LauncherLayout.jvmOptions(root, false, arguments);
    }
}
