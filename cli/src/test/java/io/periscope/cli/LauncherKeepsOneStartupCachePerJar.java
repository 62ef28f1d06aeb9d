package io.periscope.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher's start-up caches (JDK 25's AOT cache, or AppCDS before it), one for trace as text, one
 * for the commands that draw and one for the others: each made once per jar, made anew when the jar is rebuilt, never in the
 * way of a command. The launcher runs from a copy of the repository's layout whose jar is a small
 * program that says whether the JVM was given a cache; its training class stands in for
 * io.periscope.cli.StartupTraining.
 */
class LauncherKeepsOneStartupCachePerJar {

    @TempDir
    Path root;
    private Path jar;

    record Run(int status, String out, String err) {
    }

    @BeforeEach
    void layout() throws Exception {
        LauncherLayout.launcher(root);
        Files.createDirectories(root.resolve("examples"));
        Files.writeString(root.resolve("examples/mag-globalnet.yaml"), "the training reads only that this file exists\n");
        jar = LauncherLayout.jar(root, Map.of("PeriscopeCommand.java", """
                package io.periscope.cli;
                public class PeriscopeCommand {
                    public static void main(String[] args) {
                        String cache = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                                .filter(a -> a.startsWith("-XX:AOTCache=") || a.startsWith("-XX:SharedArchiveFile="))
                                .map(a -> a.substring(a.lastIndexOf('/') + 1).split("-")[1]).findFirst().orElse(null);
                        System.out.println("hello " + (cache == null ? "uncached" : "cached") + (args.length > 0 && cache != null ? " (" + cache + ")" : ""));
                    }
                }
                """, "StartupTraining.java", """
                package io.periscope.cli;
                public class StartupTraining {
                    public static void main(String[] args) {
                        if (System.getenv("TRAINING_FAILS") != null || !java.nio.file.Files.exists(java.nio.file.Path.of(args[1]))
                                || !java.util.List.of("trace", "text", "picture").contains(args[0])) {
                            System.exit(1);
                        }
                        PeriscopeCommand.main(new String[0]);
                    }
                }
                """), LauncherLayout.MAIN_CLASS);
    }

    @Test
    void theFirstLaunchMakesTheCacheAndLaterOnesUseIt() throws Exception {
        Run first = launch(Map.of());
        assertThat(first.out()).isEqualTo("hello cached\n");
        assertThat(first.err()).contains("preparing the start-up cache");
        assertThat(caches()).hasSize(1);

        Run second = launch(Map.of());
        assertThat(second.out()).isEqualTo("hello cached\n");
        assertThat(second.err()).isEmpty();
        assertThat(caches().getFirst().getFileName().toString()).startsWith("periscope-text-");
    }

    @Test
    void aRebuiltJarGetsANewCacheAndTheOldOneGoes() throws Exception {
        launch(Map.of());
        List<Path> before = caches();
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));

        Run rebuilt = launch(Map.of());

        assertThat(rebuilt.err()).contains("preparing the start-up cache");
        assertThat(rebuilt.out()).isEqualTo("hello cached\n");
        assertThat(caches()).hasSize(1).doesNotContainAnyElementsOf(before);
    }

    @Test
    void traceAndTheCommandsThatDrawGetACacheOfTheirOwnAndARebuildReplacesThem() throws Exception {
        Run trace = launch(Map.of(), "trace", "x.yaml", "--hash");
        assertThat(trace.err()).contains("preparing the start-up cache of trace");
        assertThat(trace.out()).isEqualTo("hello cached (trace)\n");
        assertThat(launch(Map.of(), "trace", "--json", "x.yaml").out()).as("JSON is written by Jackson, which trace's own cache leaves out")
                .isEqualTo("hello cached (text)\n");
        Run drawing = launch(Map.of(), "trace", "x.yaml", "--html", "x.html");
        assertThat(drawing.err()).contains("preparing the start-up cache of the commands that draw");
        assertThat(drawing.out()).isEqualTo("hello cached (picture)\n");
        assertThat(launch(Map.of(), "serve", "x.yaml").out()).isEqualTo("hello cached (picture)\n");
        assertThat(launch(Map.of(), "--debug", "trace", "--dot=x.dot", "x.yaml").out()).isEqualTo("hello cached (picture)\n");
        assertThat(launch(Map.of(), "--debug", "trace", "x.yaml", "--json", "--html=x.html").out()).isEqualTo("hello cached (picture)\n");
        assertThat(launch(Map.of(), "plan", "x.yaml").out()).isEqualTo("hello cached (text)\n");
        assertThat(caches()).hasSize(3);
        List<Path> before = caches();
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));

        launch(Map.of(), "serve", "x.yaml");

        assertThat(caches()).as("the new jar's picture cache alone: the old jar's three are gone")
                .hasSize(1).doesNotContainAnyElementsOf(before);
        assertThat(caches().getFirst().getFileName().toString()).startsWith("periscope-picture-");
    }

    @Test
    void aDamagedCacheNeitherBreaksTheCommandNorSpeaksInItsOutput() throws Exception {
        launch(Map.of());
        try (OutputStream out = Files.newOutputStream(caches().getFirst())) {
            out.write("not a cache".getBytes(StandardCharsets.UTF_8));
        }

        Run damaged = launch(Map.of());

        assertThat(damaged.status()).isZero();
        assertThat(damaged.out()).isEqualTo("hello cached\n");
        assertThat(damaged.err()).isEmpty();
    }

    @Test
    void aFailedTrainingRunsTheCommandAndIsNotRetriedForThatJar() throws Exception {
        Run failed = launch(Map.of("TRAINING_FAILS", "yes"));
        assertThat(failed.status()).isZero();
        assertThat(failed.out()).isEqualTo("hello uncached\n");
        assertThat(failed.err()).contains("could not make the start-up cache");

        Run again = launch(Map.of());
        assertThat(again.out()).isEqualTo("hello uncached\n");
        assertThat(again.err()).isEmpty();
        assertThat(caches()).isEmpty();
    }

    @Test
    void periscopeAotOffNeitherMakesNorUsesACache() throws Exception {
        Run off = launch(Map.of("PERISCOPE_AOT", "off"));
        assertThat(off.out()).isEqualTo("hello uncached\n");
        assertThat(off.err()).isEmpty();
        assertThat(root.resolve(".periscope/aot")).doesNotExist();
    }

    /** The caches in .periscope/aot/, without the training log and failure markers. */
    private List<Path> caches() throws IOException {
        Path directory = root.resolve(".periscope/aot");
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().matches("periscope-.*\\.(aot|jsa)")).sorted().toList();
        }
    }

    private Run launch(Map<String, String> environment, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", root.resolve("periscope").toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("PERISCOPE_AOT");
        builder.environment().putAll(environment);
        Path out = root.resolve("out.txt");
        Path err = root.resolve("err.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
