package io.periscope.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

/**
 * {@code periscope ARGS} in a JVM of its own, as a user runs it, for the tests that signal it: its
 * standard output and error as one stream of lines, read as they come (a test may act on a line:
 * signal the command once it said how far it got).
 */
final class CommandInAProcess {

    private final Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private CommandInAProcess(boolean ownGroup, BiConsumer<CommandInAProcess, String> onLine, String... args) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // env --default-signal=INT: a shell without job control starts a background job ("./run-tests &",
        // nohup) with SIGINT ignored, its children inherit that, and a JVM leaves an ignored SIGINT
        // ignored, as POSIX asks. A user's Ctrl-C reaches a command whose SIGINT is at its default.
        List<String> argv = new ArrayList<>(List.of("env", "--default-signal=INT", java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), PeriscopeCommand.class.getName()));
        argv.addAll(List.of(args));
        if (ownGroup) {
            // setsid execs in place (this child leads no group yet), so the command's pid also names its process group
            argv.addFirst("setsid");
        }
        process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    output.add(line);
                    onLine.accept(this, line);
                }
            } catch (IOException e) {
                output.add("reading the command's output failed: " + e);
            }
        });
    }

    static CommandInAProcess start(String... args) throws IOException {
        return new CommandInAProcess(false, (command, line) -> { }, args);
    }

    /** The same, calling {@code onLine} with the command and each line as it comes, on the thread that reads them. */
    static CommandInAProcess start(BiConsumer<CommandInAProcess, String> onLine, String... args) throws IOException {
        return new CommandInAProcess(false, onLine, args);
    }

    /**
     * The same in a process group of its own, as a shell's job: {@link #signalGroup} then reaches the programs it
     * runs too, as a terminal's Ctrl-C does.
     */
    static CommandInAProcess startInItsOwnGroup(BiConsumer<CommandInAProcess, String> onLine, String... args) throws IOException {
        return new CommandInAProcess(true, onLine, args);
    }

    /** Sends {@code signal} ({@code INT}, {@code TERM}) as a terminal or a service manager would. */
    void signal(String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot signal the command: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends {@code signal} to the command's whole process group, as a terminal's Ctrl-C does (for {@link #startInItsOwnGroup}). */
    void signalGroup(String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, "--", "-" + process.pid()).start().waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot signal the command: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long pid() {
        return process.pid();
    }

    /** Whether it ended within {@code timeout}; its output is then read to the end. */
    boolean ends(Duration timeout) throws InterruptedException {
        boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (ended) {
            reader.join(10_000);
        }
        return ended;
    }

    boolean alive() {
        return process.isAlive();
    }

    int exitValue() {
        return process.exitValue();
    }

    /** The lines so far. */
    List<String> output() {
        return List.copyOf(output);
    }

    boolean said(String start) {
        return output.stream().anyMatch(l -> l.startsWith(start));
    }

    Stream<String> lines() {
        return output.stream();
    }
}
