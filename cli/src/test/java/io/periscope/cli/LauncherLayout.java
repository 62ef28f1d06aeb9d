package io.periscope.cli;

import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A copy of the repository's layout for testing the launcher ({@code ./periscope}) alone: the launcher
 * and the JDK search it sources, and in place of the CLI's jar a small program compiled from the
 * sources a test gives, so that what the launcher hands the JVM can be seen without building Periscope.
 */
final class LauncherLayout {

    /** The class the launcher starts by name, as the real jar's manifest names it too: a test's program is this class. */
    static final String MAIN_CLASS = "io.periscope.cli.PeriscopeCommand";

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();   // the module (cli/) is at the top level

    private LauncherLayout() {
    }

    /** Puts the launcher and {@code scripts/find-jdk.sh} under {@code root}, and returns the launcher. */
    static Path launcher(Path root) throws IOException {
        Files.copy(REPOSITORY.resolve("periscope"), root.resolve("periscope"));
        Files.createDirectories(root.resolve("scripts"));
        Files.copy(REPOSITORY.resolve("scripts/find-jdk.sh"), root.resolve("scripts/find-jdk.sh"));
        return root.resolve("periscope");
    }

    /**
     * Compiles {@code sources} (file name to Java source) and writes them as {@code cli/target/periscope.jar}
     * under {@code root}, with {@code mainClass} as its entry point; returns the jar.
     */
    static Path jar(Path root, Map<String, String> sources, String mainClass) throws IOException {
        Path directory = Files.createDirectories(root.resolve("program"));
        List<String> arguments = new ArrayList<>(List.of("-d", root.resolve("classes").toString()));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Files.writeString(directory.resolve(source.getKey()), source.getValue());
            arguments.add(directory.resolve(source.getKey()).toString());
        }
        Path classes = Files.createDirectories(root.resolve("classes"));
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, arguments.toArray(String[]::new))).isZero();
        Path jar = Files.createDirectories(root.resolve("cli/target")).resolve("periscope.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString()));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
        }
        return jar;
    }

    /**
     * The launcher under {@code root} with, in place of the CLI, a program that prints the options the JVM
     * was started with: what {@link #jvmOptions} lays out on its first call, for a test that changes the
     * launcher's copy before.
     */
    static void printingJvmOptions(Path root) throws IOException {
        launcher(root);
        jar(root, Map.of("PeriscopeCommand.java", """
                package io.periscope.cli;
                public class PeriscopeCommand {
                    public static void main(String[] args) {
                        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().forEach(System.out::println);
                    }
                }
                """), MAIN_CLASS);
    }

    /**
     * The JVM options the launcher gives for {@code arguments}, one per line, for tests of which flags a
     * command gets: the first call lays out under {@code root} the launcher and, in place of the CLI, a
     * program that prints them. With {@code oneCore}, the launcher runs under {@code taskset -c 0}, as a
     * user or a one-CPU machine would give it one core.
     */
    static List<String> jvmOptions(Path root, boolean oneCore, String... arguments) throws IOException, InterruptedException {
        return jvmOptions(root, oneCore, Map.of(), arguments);
    }

    /** As {@link #jvmOptions(Path, boolean, String...)}, with {@code environment} added to the launcher's. */
    static List<String> jvmOptions(Path root, boolean oneCore, Map<String, String> environment, String... arguments)
            throws IOException, InterruptedException {
        if (!Files.exists(root.resolve("periscope"))) {
            printingJvmOptions(root);
        }
        List<String> command = new ArrayList<>();
        if (oneCore) {
            command.addAll(List.of("taskset", "-c", "0"));
        }
        command.addAll(List.of("bash", root.resolve("periscope").toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // The cache's training would run the program too; its flags are not what the tests read.
        builder.environment().put("PERISCOPE_AOT", "off");
        builder.environment().putAll(environment);
        Path out = root.resolve("out.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        assertThat(process.exitValue()).isZero();
        return Files.readAllLines(out);
    }
}
