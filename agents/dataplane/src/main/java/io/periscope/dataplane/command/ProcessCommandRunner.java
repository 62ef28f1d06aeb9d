package io.periscope.dataplane.command;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs programs with {@link ProcessBuilder}, either in the caller's own network namespace (a real
 * node, the lab's machine-level commands) or every one inside a named namespace through
 * {@code ip netns exec NS} (the kernel tests). Standard input is written and both outputs are
 * drained on their own threads, so a large batch or a large {@code iptables-save} cannot fill a
 * pipe and stall the program; a program that does not finish within the timeout is killed rather
 * than left to hang its caller. A program can also be started without waiting for it
 * ({@link #start}). Every program still running is known, so an interrupted lab command can stop
 * them ({@link #stopRunning}): a child process outlives the JVM.
 */
public final class ProcessCommandRunner implements CommandRunner {

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    /** Guards starting a program against {@link #stopRunning}: none starts unseen while it stops them. */
    private static final Object STARTING = new Object();
    /** The interrupted command's thread, which starts no program any more; null while none is. */
    private static volatile Thread refused;

    private final Optional<String> namespace;
    private final Duration timeout;

    private ProcessCommandRunner(Optional<String> namespace, Duration timeout) {
        this.namespace = namespace;
        this.timeout = timeout;
    }

    /** Runs programs in the namespace the caller itself lives in. */
    public static ProcessCommandRunner here() {
        return new ProcessCommandRunner(Optional.empty(), DEFAULT_TIMEOUT);
    }

    /** Runs every program inside the named network namespace ({@code ip netns exec NS ...}). */
    public static ProcessCommandRunner inNamespace(String namespace) {
        if (namespace.isBlank() || namespace.contains("/")) {
            throw new IllegalArgumentException("'" + namespace + "' is not a network namespace name");
        }
        return new ProcessCommandRunner(Optional.of(namespace), DEFAULT_TIMEOUT);
    }

    /** The same runner with another limit on how long {@link #execute} waits for a program. */
    public ProcessCommandRunner withTimeout(Duration newTimeout) {
        return new ProcessCommandRunner(namespace, newTimeout);
    }

    public Optional<String> namespace() {
        return namespace;
    }

    @Override
    public CommandResult execute(Command command) {
        Started started = launch(command);
        try {
            return started.awaitOrFail(timeout);
        } finally {
            started.forget();
        }
    }

    /**
     * Starts the program and returns at once; it counts among the running programs that
     * {@link #stopRunning} stops until it ended (or was stopped). Its output is read as it comes, so it
     * never stalls on a full pipe.
     */
    @Override
    public RunningProgram start(Command command) {
        return launch(command);
    }

    private Started launch(Command command) {
        List<String> argv = new ArrayList<>();
        namespace.ifPresent(ns -> argv.addAll(List.of("ip", "netns", "exec", ns)));
        argv.addAll(command.argv());
        Process process;
        synchronized (STARTING) {
            if (Thread.currentThread() == refused) {
                throw new CommandFailedException(command, "not started: the command was interrupted");
            }
            try {
                process = new ProcessBuilder(argv).start();
            } catch (IOException e) {
                throw new CommandFailedException(command, "cannot start " + command.program() + ": " + e.getMessage()
                        + " (is it installed and on PATH?)");
            }
            RUNNING.add(process);
        }
        // A program started in the background may never be awaited: it leaves the set when it ends.
        process.onExit().thenRun(() -> RUNNING.remove(process));
        return new Started(command, process);
    }

    /**
     * Kills every program a {@code ProcessCommandRunner} of this JVM started and that still runs: for
     * a lab command that was interrupted (Ctrl-C, SIGTERM), before the JVM exits without waiting for
     * them. The calls that waited for them fail; programs started afterwards (cleanup) are not affected.
     *
     * @return how many were running
     */
    public static int stopRunning() {
        return stopRunning(null);
    }

    /**
     * As {@link #stopRunning()}, and from then on {@code command}, the interrupted command's thread,
     * starts no program: between the signal and the JVM's exit it would otherwise start its next one
     * (the probe's next ping), which would outlive the JVM. Other threads (the shutdown hooks'
     * cleanup) still start theirs.
     */
    public static int stopRunning(Thread command) {
        Set<Process> running;
        synchronized (STARTING) {
            if (command != null) {
                refused = command;
            }
            running = Set.copyOf(RUNNING);
        }
        int stopped = 0;
        for (Process process : running) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            stopped++;
        }
        return stopped;
    }

    /** Whether {@code thread} is the command {@link #stopRunning(Thread)} stopped: what fails on it now is the signal's doing. */
    public static boolean stopped(Thread thread) {
        return thread == refused;
    }

    /** A program started and not waited for yet; its output drained from the start. */
    private static final class Started implements RunningProgram {

        private final Command command;
        private final Process process;
        private final CompletableFuture<String> stdout;
        private final CompletableFuture<String> stderr;

        Started(Command command, Process process) {
            this.command = command;
            this.process = process;
            this.stdout = drain(process.getInputStream());
            this.stderr = drain(process.getErrorStream());
            feed(process.getOutputStream(), command.stdin());
        }

        /** As {@link #execute}: a program still running after {@code timeout} is killed, and that is a failure. */
        CommandResult awaitOrFail(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new CommandFailedException(command, "no answer within " + timeout.toSeconds() + " s; killed");
                }
                return result();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new CommandFailedException(command, "interrupted");
            }
        }

        @Override
        public CommandResult await(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    stop();
                    process.waitFor();
                }
                return result();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new CommandFailedException(command, "interrupted");
            } finally {
                forget();
            }
        }

        @Override
        public void stop() {
            process.destroyForcibly();
        }

        @Override
        public boolean running() {
            return process.isAlive();
        }

        void forget() {
            RUNNING.remove(process);
        }

        private CommandResult result() throws InterruptedException {
            try {
                return new CommandResult(process.exitValue(), stdout.get(), stderr.get());
            } catch (ExecutionException e) {
                throw new CommandFailedException(command, "cannot read its output: " + e.getCause().getMessage());
            }
        }
    }

    /**
     * Reads a program's output to its end on a thread of its own. Stopping a program closes its
     * streams under the reader, which then keeps what had come so far.
     */
    private static CompletableFuture<String> drain(InputStream stream) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try (stream) {
                for (int n = stream.read(buffer); n >= 0; n = stream.read(buffer)) {
                    read.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // closed by a stop: what was read is all there is
            }
            text.complete(read.toString(StandardCharsets.UTF_8));
        });
        return text;
    }

    private static void feed(OutputStream stream, String input) {
        if (input.isEmpty()) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // Nothing was to be written; a program that already exited closed its end.
            }
            return;
        }
        Thread.ofPlatform().daemon().start(() -> {
            try (stream) {
                stream.write(input.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // A program that exits before reading all its input closes the pipe; its exit
                // status and standard error say what went wrong.
            }
        });
    }

    @Override
    public String toString() {
        return namespace.map(ns -> "commands in namespace " + ns).orElse("commands in the agent's namespace");
    }
}
