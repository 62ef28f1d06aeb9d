package io.periscope.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The collector the launcher asks for: the serial one for a command that runs once and exits (a
 * one-thread batch job that G1's concurrent threads, barriers and heap growth only slow down), the
 * JVM's own choice for what serves until it is stopped. The launcher runs from a copy of the
 * repository's layout whose jar prints the JVM's options.
 */
class CommandsThatRunOnceGetTheSerialCollector {

    private static final String SERIAL = "-XX:+UseSerialGC";

    @TempDir
    Path root;

    @BeforeEach
    void layout() throws Exception {
        LauncherLayout.launcher(root);
        LauncherLayout.jar(root, Map.of("PeriscopeCommand.java", """
                package io.periscope.cli;
                public class PeriscopeCommand {
                    public static void main(String[] args) {
                        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().forEach(System.out::println);
                    }
                }
                """), LauncherLayout.MAIN_CLASS);
    }

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

    /** The JVM options the launcher started the jar with for {@code arguments}. */
    private List<String> launch(String... arguments) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", root.resolve("periscope").toString());
        builder.command().addAll(List.of(arguments));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // The cache's training would run the jar too; its flags are not what this test reads.
        builder.environment().put("PERISCOPE_AOT", "off");
        Path out = root.resolve("out.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        assertThat(process.exitValue()).isZero();
        return Files.readAllLines(out);
    }
}
