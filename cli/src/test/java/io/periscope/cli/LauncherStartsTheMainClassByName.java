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
 * The launcher names the main class and puts the jar on the class path, instead of {@code -jar}: with
 * {@code -jar} the JVM opens the jar in Java to read its manifest, indexing all of its entries, which
 * the start-up cache otherwise spares a command. The arguments reach the command as given, and the
 * manifest's {@code Enable-Native-Access} still holds through the launcher's own option. The launcher
 * runs from a copy of the repository's layout whose jar prints what the JVM was started with.
 */
class LauncherStartsTheMainClassByName {

    @TempDir
    Path root;
    private Path jar;

    @BeforeEach
    void layout() throws Exception {
        LauncherLayout.launcher(root);
        jar = LauncherLayout.jar(root, Map.of("PeriscopeCommand.java", """
                package io.periscope.cli;
                public class PeriscopeCommand {
                    public static void main(String[] args) {
                        System.out.println(System.getProperty("sun.java.command"));
                        System.out.println(System.getProperty("java.class.path"));
                        System.out.println(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
                    }
                }
                """), LauncherLayout.MAIN_CLASS);
    }

    @Test
    void theJvmRunsPeriscopeCommandWithTheJarOnItsClassPath() throws Exception {
        List<String> lines = launchTraceOfAFileWithSpaces();

        assertThat(lines.get(0)).as("what the JVM was asked to run").isEqualTo(LauncherLayout.MAIN_CLASS + " trace a file with spaces.yaml --json");
        assertThat(Path.of(lines.get(1)).toRealPath()).isEqualTo(jar.toRealPath());
        assertThat(lines.get(2)).contains("--enable-native-access=ALL-UNNAMED");
    }

    /** Runs {@code periscope trace "a file with spaces.yaml" --json} through env, as the launcher's first line does; returns its output. */
    private List<String> launchTraceOfAFileWithSpaces() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("/usr/bin/env", "bash", root.resolve("periscope").toString(), "trace",
                "a file with spaces.yaml", "--json");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("PERISCOPE_AOT", "off");
        Path out = root.resolve("out.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(root.resolve("err.txt").toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        assertThat(process.exitValue()).as("the launcher's status; its errors: %s", Files.readString(root.resolve("err.txt"))).isZero();
        return Files.readAllLines(out);
    }
}
