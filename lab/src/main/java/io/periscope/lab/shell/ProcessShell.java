package io.periscope.lab.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Starts programs with {@link ProcessBuilder}. Input is written and both outputs are drained on
 * their own threads, so a large batch cannot fill a pipe and stall the program; a program that does
 * not finish within the timeout is killed rather than left to hang the lab. A program can also be
 * started without waiting for it ({@link #start}). Every program still running is known, so an
 * interrupted command can stop them: a child process outlives the JVM.
 */
public final class ProcessShell implements Shell {

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    /** Guards starting a program against {@link #stopRunning}: none starts unseen while it stops them. */
    private static final Object STARTING = new Object();
    /** The interrupted command's thread, which starts no program any more; null while none is. */
    private static volatile Thread refused;

    private final Duration timeout;

    public ProcessShell(Duration timeout) {
        this.timeout = timeout;
    }

    public ProcessShell() {
        this(Duration.ofSeconds(60));
    }

    @Override
    public ShellResult execute(Invocation invocation) {
        Started started = launch(invocation);
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
    public RunningProgram start(Invocation invocation) {
        return launch(invocation);
    }

    private Started launch(Invocation invocation) {
        Process process;
        synchronized (STARTING) {
            if (Thread.currentThread() == refused) {
                throw new ShellFailure(invocation, "not started: the command was interrupted");
            }
            try {
                process = new ProcessBuilder(invocation.argv()).start();
            } catch (IOException e) {
                throw new ShellFailure(invocation, "cannot start " + invocation.argv().getFirst() + ": " + e.getMessage()
                        + " (is it installed and on PATH?)");
            }
            RUNNING.add(process);
        }
        // A program started in the background may never be awaited: it leaves the set when it ends.
        process.onExit().thenRun(() -> RUNNING.remove(process));
        return new Started(invocation, process);
    }

    /**
     * Kills every program a {@code ProcessShell} of this JVM started and that still runs: for a
     * command that was interrupted (Ctrl-C, SIGTERM), before the JVM exits without waiting for them.
     * The calls that waited for them fail; programs started afterwards (cleanup) are not affected.
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

    /** A program started and not waited for yet; its output drained from the start. */
    private static final class Started implements RunningProgram {

        private final Invocation invocation;
        private final Process process;
        private final CompletableFuture<String> stdout;
        private final CompletableFuture<String> stderr;

        Started(Invocation invocation, Process process) {
            this.invocation = invocation;
            this.process = process;
            this.stdout = drain(process.getInputStream());
            this.stderr = drain(process.getErrorStream());
            feed(process.getOutputStream(), invocation.stdin());
        }

        /** As {@link #execute}: a program still running after {@code timeout} is killed, and that is a failure. */
        ShellResult awaitOrFail(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new ShellFailure(invocation, "no answer within " + timeout.toSeconds() + " s; killed");
                }
                return result();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new ShellFailure(invocation, "interrupted");
            }
        }

        @Override
        public ShellResult await(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    stop();
                    process.waitFor();
                }
                return result();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new ShellFailure(invocation, "interrupted");
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

        private ShellResult result() throws InterruptedException {
            try {
                return new ShellResult(process.exitValue(), stdout.get(), stderr.get());
            } catch (ExecutionException e) {
                throw new ShellFailure(invocation, "cannot read its output: " + e.getCause().getMessage());
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
            java.io.ByteArrayOutputStream read = new java.io.ByteArrayOutputStream();
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
}
