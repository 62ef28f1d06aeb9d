package io.periscope.lab;

import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.down.LabTeardown;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The labs one test brings up (register it as an instance field): the test is skipped unless it runs
 * as root, its labs keep their state in a directory of the test's own, and after the test every lab
 * it was handed is closed (removing whatever the test left of it), newest first, before that
 * directory is removed. A JVM stopped by a signal mid-test (Ctrl-C, a build's timeout) removes every
 * lab whose state is in that directory on its way out, the one still being built or whose supervisor
 * is starting too: a killed run once left a lab's nine namespaces and its supervisor behind.
 */
public final class TestLabs implements BeforeEachCallback, AfterEachCallback {

    private final List<RunningLab> labs = new ArrayList<>();
    private Path state;
    private Thread onSignal;

    /** {@link RunningLab#up}, with its state in this test's directory. */
    public RunningLab up(ClusterSet set) {
        return kept(RunningLab.up(set, state));
    }

    /** {@link RunningLab#upWithoutSupervisor}, with its state in this test's directory: nothing reconciles what the test changes. */
    public RunningLab upWithoutSupervisor(ClusterSet set) {
        return kept(RunningLab.upWithoutSupervisor(set, state));
    }

    /** {@link RunningLab#planned}, with its state in this test's directory. */
    public RunningLab planned(ClusterSet set) {
        return kept(RunningLab.planned(set, state));
    }

    /** The directory this test's labs keep their state in, removed after the test. */
    public Path state() {
        return state;
    }

    private RunningLab kept(RunningLab lab) {
        labs.add(lab);
        return lab;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        RunningLab.assumeRoot();
        state = Files.createTempDirectory("periscope-labtest-");
        Path directory = state;
        onSignal = Thread.ofPlatform().unstarted(() -> removeEveryLab(directory));
        Runtime.getRuntime().addShutdownHook(onSignal);
    }

    /**
     * Every lab with its state in {@code directory}: its supervisor stopped, its namespaces and processes
     * removed; then the directory, which {@link #afterEach} would have removed.
     */
    private static void removeEveryLab(Path directory) {
        // The test's thread carries on while the JVM shuts down: a lab it was starting may write its state
        // once more after the first pass. Passes go on until the directory stayed away for a while (at most 5 s).
        long deadline = System.nanoTime() + 5_000_000_000L;
        int absent = 0;
        while (absent < 3 && System.nanoTime() < deadline) {
            if (!Files.exists(directory)) {
                absent++;
            } else {
                absent = 0;
                LabStateFile states = new LabStateFile(directory);
                for (LabState left : states.all()) {
                    new LabTeardown(ProcessCommandRunner.here(), states).remove(left);
                }
                try {
                    deleteTree(directory);
                } catch (NoSuchFileException e) {
                    // a lab's own hook removed it first
                } catch (IOException e) {
                    System.err.println("could not remove " + directory + ": " + e.getMessage());
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void deleteTree(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        try {
            for (RunningLab lab : labs.reversed()) {
                lab.close();
            }
        } finally {
            labs.clear();
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook removes what is left
            }
            deleteTree(state);
        }
    }
}
