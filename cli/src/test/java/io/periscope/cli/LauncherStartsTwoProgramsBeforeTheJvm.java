package io.periscope.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where starting a process takes milliseconds (3.6 to 4.2 ms measured on a 2-core machine), each
 * program the launcher runs to compute a value (sed, cut, cksum, stat, dirname, nproc...) was time a
 * small command waited: seventeen of them were a third of a trace. A launch with a fresh jar and its
 * start-up cache now runs two, find (is the jar stale?) and stat (which cache is this jar's?), plus
 * readlink when it must follow the java on PATH to its JDK. Each program the launcher may run is put
 * on PATH as a shim that writes its name to a log and then runs the real one; the launcher runs from
 * a copy of the repository's layout whose jar is a small program.
 */
class LauncherStartsTwoProgramsBeforeTheJvm {

    /** Programs a launcher script might run by name; the shims stand in for them on PATH. */
    private static final List<String> PROGRAMS = List.of("bash", "sed", "cut", "cat", "cksum", "stat", "find", "readlink",
            "dirname", "basename", "nproc", "awk", "grep", "head", "tail", "tr", "mkdir", "touch", "flock", "rm", "mv", "sort", "uname");

    @TempDir
    Path root;
    private Path log;
    private Path shims;

    @BeforeEach
    void layout() throws Exception {
        LauncherLayout.launcher(root);
        Files.createDirectories(root.resolve("examples"));
        Files.writeString(root.resolve("examples/mag-globalnet.yaml"), "the training reads only that this file exists\n");
        LauncherLayout.jar(root, Map.of("PeriscopeCommand.java", """
                package io.periscope.cli;
                public class PeriscopeCommand {
                    public static void main(String[] args) {
                        System.out.println("hello from " + System.getProperty("java.home"));
                    }
                }
                """, "StartupTraining.java", """
                package io.periscope.cli;
                public class StartupTraining {
                    public static void main(String[] args) {
                        PeriscopeCommand.main(args);
                    }
                }
                """), LauncherLayout.MAIN_CLASS);
        log = root.resolve("programs.log");
        shims = Files.createDirectories(root.resolve("shims"));
        for (String program : PROGRAMS) {
            Path real = Path.of("/usr/bin", program);
            if (!Files.isExecutable(real)) {
                real = Path.of("/bin", program);
            }
            if (!Files.isExecutable(real)) {
                continue;
            }
            Path shim = shims.resolve(program);
            Files.writeString(shim, "#!/bin/sh\necho " + program + " >> '" + log + "'\nexec " + real + " \"$@\"\n");
            Files.setPosixFilePermissions(shim, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void aLaunchWithAFreshJarAndItsCacheRunsFindAndStat() throws Exception {
        launch("trace");   // makes trace's start-up cache
        Files.deleteIfExists(log);

        assertThat(launch("trace")).isEqualTo("hello from " + System.getProperty("java.home") + "\n");

        assertThat(Files.readAllLines(log)).containsExactly("bash", "find", "stat");
    }

    @Test
    void versionRunsNoMoreThanACommand() throws Exception {
        launch("--version");
        Files.deleteIfExists(log);

        launch("--version");

        assertThat(Files.readAllLines(log)).containsExactly("bash", "find", "stat");
    }

    @Test
    void withoutJavaHomeTheJavaOnPathIsFollowedToItsJdkByReadlinkAlone() throws Exception {
        // PATH's java is a link to this JDK's, as /usr/bin/java is one to /etc/alternatives/java.
        Path bin = Files.createDirectories(root.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        String path = shims + ":" + bin;
        launch("trace", Map.of("PATH", path));
        Files.deleteIfExists(log);

        String out = launch("trace", Map.of("PATH", path));

        assertThat(out).isEqualTo("hello from " + Path.of(System.getProperty("java.home")).toRealPath() + "\n");
        assertThat(Files.readAllLines(log)).containsExactly("bash", "readlink", "find", "stat");
    }

    private String launch(String argument) throws Exception {
        return launch(argument, Map.of("JAVA_HOME", System.getProperty("java.home")));
    }

    /**
     * Runs the launcher through env, as its first line does, with only the shims on PATH (unless
     * {@code environment} says otherwise); returns its output.
     */
    private String launch(String argument, Map<String, String> environment) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("/usr/bin/env", "bash", root.resolve("periscope").toString(), argument);
        builder.environment().put("PATH", shims.toString());
        builder.environment().remove("JAVA_HOME");
        builder.environment().remove("PERISCOPE_AOT");
        builder.environment().putAll(environment);
        Path out = root.resolve("out.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(root.resolve("err.txt").toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        assertThat(process.exitValue()).as("the launcher's status; its errors: %s", Files.readString(root.resolve("err.txt"))).isZero();
        return Files.readString(out);
    }
}
