package io.periscope.features.kubernetes;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The class path and class-data archives of the agents' JVMs, one per test JVM.
 *
 * <p>Twelve to twenty-one agent JVMs start at once for each lab, and on two cores most of their
 * start is loading the same seven thousand classes (fabric8's client and models, Jackson, netty).
 * A dynamic class-data archive ({@code -XX:ArchiveClassesAtExit}, then
 * {@code -XX:SharedArchiveFile}) lets the JVM map them instead. The JVM writes one only for a class
 * path of jars ("Cannot have non-empty directory in paths"), and a test's class path holds
 * directories (the module's own {@code target/test-classes} at least), so each directory is packed
 * into a jar once.
 *
 * <p>The first agent of each subcommand trains its archive: it runs with
 * {@code -XX:ArchiveClassesAtExit} and the JVM writes the archive when the agent stops. The
 * archive is taken only from an agent that ended by itself after SIGTERM (a killed JVM leaves a
 * partial file); later agents of that subcommand map it. An archive is only a start-up cache: a JVM
 * that finds it unusable runs without it ({@code -Xshare:auto}), and none of this is in what the
 * agents program or in the production images.
 */
final class AgentJvm {

    private static AgentJvm shared;

    private final Path directory;
    private final String classPath;
    /** Subcommand to the agent process training its archive, until it stops; null between {@link #archiveOptions} and {@link #started}. */
    private final Map<String, Process> training = new HashMap<>();

    private AgentJvm(Path directory, String classPath) {
        this.directory = directory;
        this.classPath = classPath;
    }

    /** The test JVM's agent JVM settings, made on first use in {@code target/agent-jvm} (what a previous run left there is removed). */
    static synchronized AgentJvm shared(String testClassPath) {
        if (shared == null) {
            shared = in(Path.of("target", "agent-jvm").toAbsolutePath(), testClassPath);
        }
        return shared;
    }

    /** Settings kept in {@code directory}, emptied first, for agents of {@code testClassPath}. */
    static AgentJvm in(Path directory, String testClassPath) {
        deleteTree(directory);
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory + " for the agents' class path", e);
        }
        return new AgentJvm(directory, jarsOnly(testClassPath, directory));
    }

    String classPath() {
        return classPath;
    }

    /** The archive options for a new agent of {@code subcommand}; {@link #started} must follow with its process. */
    synchronized List<String> archiveOptions(String subcommand) {
        Path archive = archive(subcommand);
        if (Files.exists(archive)) {
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        if (training.containsKey(subcommand)) {
            return List.of();
        }
        training.put(subcommand, null);
        return List.of("-XX:ArchiveClassesAtExit=" + partial(subcommand));
    }

    /** The process of an agent that {@link #archiveOptions} was asked for. */
    synchronized void started(String subcommand, Process process) {
        training.replace(subcommand, null, process);
    }

    /** An agent stopped: a trainer that ended by itself leaves its subcommand's archive; a killed one leaves nothing. */
    synchronized void stopped(Process process, boolean endedBySignal) {
        training.entrySet().removeIf(entry -> {
            if (entry.getValue() != process) {
                return false;
            }
            Path partial = partial(entry.getKey());
            try {
                if (endedBySignal && Files.exists(partial)) {
                    Files.move(partial, archive(entry.getKey()), StandardCopyOption.ATOMIC_MOVE);
                } else {
                    Files.deleteIfExists(partial);
                }
            } catch (IOException e) {
                // No archive: later agents start as the first did.
            }
            return true;
        });
    }

    /** A start that failed before any process ran: the next agent of the subcommand trains instead. */
    synchronized void notStarted(String subcommand) {
        training.remove(subcommand, null);
    }

    private Path archive(String subcommand) {
        return directory.resolve(subcommand + ".jsa");
    }

    private Path partial(String subcommand) {
        return directory.resolve(subcommand + ".jsa.part");
    }

    /** {@code testClassPath} with every directory replaced by a jar of its contents, written to {@code directory}. */
    static String jarsOnly(String testClassPath, Path directory) {
        List<String> entries = new ArrayList<>();
        int index = 0;
        for (String entry : testClassPath.split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path jar = directory.resolve("classes-" + index++ + ".jar");
                pack(path, jar);
                entries.add(jar.toString());
            } else {
                entries.add(entry);
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    private static void pack(Path classes, Path jar) {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
             Stream<Path> tree = Files.walk(classes)) {
            for (Path path : tree.sorted().toList()) {
                if (path.equals(classes)) {
                    continue;
                }
                String name = classes.relativize(path).toString().replace(java.io.File.separatorChar, '/');
                if (Files.isDirectory(path)) {
                    out.putNextEntry(new JarEntry(name + "/"));
                } else {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack " + classes + " into " + jar + " for the agents' class path", e);
        }
    }

    private static void deleteTree(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(directory)) {
            for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + directory, e);
        }
    }
}
