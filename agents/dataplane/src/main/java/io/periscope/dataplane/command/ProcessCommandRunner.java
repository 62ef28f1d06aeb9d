package io.periscope.dataplane.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs programs with {@link ProcessBuilder}, either in the agent's own network namespace (a real
 * node) or inside a named one through {@code ip netns exec NS} (the lab and the kernel tests).
 * Standard input is written and both outputs are drained on their own threads, so a large batch or
 * a large {@code iptables-save} cannot fill a pipe and stall the program.
 */
public final class ProcessCommandRunner implements CommandRunner {

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final Optional<String> namespace;
    private final Duration timeout;

    private ProcessCommandRunner(Optional<String> namespace, Duration timeout) {
        this.namespace = namespace;
        this.timeout = timeout;
    }

    /** Runs programs in the namespace the agent itself lives in. */
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

    public ProcessCommandRunner withTimeout(Duration newTimeout) {
        return new ProcessCommandRunner(namespace, newTimeout);
    }

    public Optional<String> namespace() {
        return namespace;
    }

    @Override
    public CommandResult run(Command command) {
        List<String> argv = new ArrayList<>();
        namespace.ifPresent(ns -> argv.addAll(List.of("ip", "netns", "exec", ns)));
        argv.addAll(command.argv());
        Process process;
        try {
            process = new ProcessBuilder(argv).start();
        } catch (IOException e) {
            throw new CommandFailedException(command, "cannot start " + command.program() + ": " + e.getMessage());
        }
        CompletableFuture<String> stdout = drain(process.getInputStream());
        CompletableFuture<String> stderr = drain(process.getErrorStream());
        CompletableFuture<Void> stdin = feed(process.getOutputStream(), command.stdin());
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new CommandFailedException(command, "no answer within " + timeout.toSeconds() + " s; killed");
            }
            stdin.get();
            CommandResult result = new CommandResult(process.exitValue(), stdout.get(), stderr.get());
            if (!result.succeeded()) {
                throw new CommandFailedException(command, result);
            }
            return result;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new CommandFailedException(command, "interrupted");
        } catch (ExecutionException e) {
            throw new CommandFailedException(command, "cannot talk to " + command.program() + ": " + e.getCause().getMessage());
        }
    }

    private static CompletableFuture<String> drain(InputStream stream) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (stream) {
                text.complete(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                text.completeExceptionally(new UncheckedIOException(e));
            }
        });
        return text;
    }

    private static CompletableFuture<Void> feed(OutputStream stream, String input) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (stream) {
                stream.write(input.getBytes(StandardCharsets.UTF_8));
                done.complete(null);
            } catch (IOException e) {
                // A program that exits before reading all its input closes the pipe; its exit
                // status says what went wrong, so the broken pipe itself is not the error.
                done.complete(null);
            }
        });
        return done;
    }

    @Override
    public String toString() {
        return namespace.map(ns -> "commands in namespace " + ns).orElse("commands in the agent's namespace");
    }
}
