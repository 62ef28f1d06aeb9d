package io.periscope.lab.netns;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One platform thread that lives inside one network namespace and runs the tasks given to it there:
 * sockets it opens belong to that namespace, files under {@code /proc/sys/net} are that namespace's
 * and programs it starts run in it. Close it to end the thread.
 */
public final class NamespaceThread implements AutoCloseable {

    private final String namespace;
    private final ExecutorService executor;

    private NamespaceThread(String namespace) {
        this.namespace = namespace;
        this.executor = Executors.newSingleThreadExecutor(task -> Thread.ofPlatform().daemon()
                .name("netns-" + namespace).unstarted(task));
    }

    /** Starts the thread and moves it into {@code namespace}. @throws NamespaceException when that fails */
    public static NamespaceThread enter(String namespace) {
        NamespaceThread thread = new NamespaceThread(namespace);
        try {
            thread.call(() -> {
                NetworkNamespaces.enter(namespace);
                return null;
            });
        } catch (RuntimeException e) {
            thread.close();
            throw e;
        }
        return thread;
    }

    public String namespace() {
        return namespace;
    }

    /** Runs {@code task} in the namespace without waiting for it. */
    public <T> CompletableFuture<T> submit(Callable<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** Runs {@code task} in the namespace and waits for it; its exception is rethrown unchecked. */
    public <T> T call(Callable<T> task) {
        try {
            return submit(task).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NamespaceException("interrupted while working in " + namespace);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new NamespaceException("in " + namespace + ": " + e.getCause());
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
