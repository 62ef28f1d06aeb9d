package io.periscope.features.kubernetes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AgentJvm} with real JVMs: a class path with a directory is turned into jars (the JVM writes
 * no archive otherwise), the first process of a subcommand trains the archive and writes it when
 * SIGTERM stops it, a second process of that subcommand maps it, and a killed trainer leaves none.
 */
class AgentJvmArchiveIsWrittenByTheFirstAgentAndMappedByTheNext {

    /** Where each started process's output goes, until it is stopped. */
    private static final Map<Process, Path> outputs = new ConcurrentHashMap<>();

    /** A program that waits to be stopped, as an agent does; its class comes from a directory of the test's class path. */
    public static final class Waits {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("waiting");
            Thread.sleep(60_000);
        }
    }

    @Test
    void directoriesOfTheClassPathBecomeJarsOfTheirFiles(@TempDir Path temp) throws IOException {
        Path classes = Files.createDirectories(temp.resolve("classes/io/example"));
        Files.writeString(classes.resolve("A.class"), "not really a class");
        Path jar = Files.writeString(temp.resolve("lib.jar"), "");

        String path = AgentJvm.jarsOnly(temp.resolve("classes") + java.io.File.pathSeparator + jar, Files.createDirectories(temp.resolve("out")));

        List<String> entries = List.of(path.split(java.io.File.pathSeparator));
        assertThat(entries).hasSize(2).allSatisfy(e -> assertThat(e).endsWith(".jar"));
        assertThat(entries.get(1)).isEqualTo(jar.toString());
        try (JarFile packed = new JarFile(entries.get(0))) {
            assertThat(new String(packed.getInputStream(packed.getEntry("io/example/A.class")).readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("not really a class");
        }
    }

    @Test
    void theFirstAgentOfASubcommandTrainsAndTheNextMapsWhatItWrote(@TempDir Path temp) throws Exception {
        AgentJvm jvm = AgentJvm.in(temp.resolve("jvm"), whereWaitsIs());

        List<String> trainerOptions = jvm.archiveOptions("dns");
        assertThat(trainerOptions).singleElement().asString().startsWith("-XX:ArchiveClassesAtExit=");
        assertThat(jvm.archiveOptions("dns")).as("a second agent while the first trains").isEmpty();
        Process trainer = start(jvm, trainerOptions);
        jvm.started("dns", trainer);
        stop(trainer);
        jvm.stopped(trainer, true);

        List<String> mapOptions = jvm.archiveOptions("dns");
        assertThat(mapOptions).singleElement().asString().startsWith("-XX:SharedArchiveFile=");
        List<String> logged = new ArrayList<>(mapOptions);
        logged.add("-Xlog:cds=info");
        Process mapper = start(jvm, logged);
        String output = stop(mapper);
        assertThat(output).contains("Mapped dynamic region");
    }

    @Test
    void aKilledTrainerLeavesNoArchiveAndTheNextAgentTrains(@TempDir Path temp) throws Exception {
        AgentJvm jvm = AgentJvm.in(temp.resolve("jvm"), whereWaitsIs());
        List<String> options = jvm.archiveOptions("gateway");
        Process trainer = start(jvm, options);
        jvm.started("gateway", trainer);
        trainer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        Files.deleteIfExists(outputs.remove(trainer));
        jvm.stopped(trainer, false);

        assertThat(jvm.archiveOptions("gateway")).singleElement().asString().startsWith("-XX:ArchiveClassesAtExit=");
        try (var left = Files.list(temp.resolve("jvm"))) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".jsa") || n.endsWith(".part"));
        }
    }

    /** The directory or jar {@link Waits} was loaded from: a directory when Maven runs the test. */
    private static String whereWaitsIs() throws java.net.URISyntaxException {
        return Path.of(Waits.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private static Process start(AgentJvm jvm, List<String> options) throws Exception {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:auto"));
        argv.addAll(options);
        argv.addAll(List.of("-cp", jvm.classPath(), Waits.class.getName()));
        Path output = Files.createTempFile("agent-jvm", ".log");
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        outputs.put(process, output);
        // Stopped only once it runs main, as the harness stops agents that are up.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(output).contains("waiting") && process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(Files.readString(output)).as("the JVM reached main").contains("waiting");
        return process;
    }

    /** SIGTERM, as the harness stops an agent; what the process printed. */
    private static String stop(Process process) throws Exception {
        process.destroy();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the JVM ended after SIGTERM").isTrue();
        Path output = outputs.remove(process);
        String printed = Files.readString(output);
        Files.delete(output);
        return printed;
    }
}
