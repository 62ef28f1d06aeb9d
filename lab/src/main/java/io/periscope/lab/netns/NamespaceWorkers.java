package io.periscope.lab.netns;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Work done inside each of many namespaces by a few platform threads, each entering one namespace
 * after another ({@code setns(2)}, a few microseconds) and doing that namespace's work from inside:
 * files under {@code /proc/sys/net} are then the namespace's, and programs it starts run in it.
 *
 * <p>For a lab of thousands of namespaces this replaces a thread started, entered and stopped per
 * namespace, and {@code ip -n NS}, which unshares a mount namespace for every run and so copies the
 * machine's mount table, where every lab namespace is a bind mount: a cost that grows with the lab,
 * paid once per namespace. The threads end with the call: each is left in whichever namespace it
 * entered last, so none may ever run anything else.
 */
public final class NamespaceWorkers {

    private NamespaceWorkers() {
    }

    /**
     * How many threads a phase over every namespace uses: each mostly waits for a short program or
     * the kernel, so a couple per core keep the cores busy without making them take turns.
     */
    public static int threads() {
        return Math.max(2, Math.min(8, 2 * Runtime.getRuntime().availableProcessors()));
    }

    /**
     * Runs {@code work} for every item, inside the item's namespace, on {@code threads} threads.
     *
     * @return the results, in the items' order
     * @throws NamespaceException when a namespace cannot be entered
     * @throws RuntimeException   the first failure of {@code work}, as it threw it; the items not begun
     *                            by then are not done
     */
    public static <E, T> List<T> inEach(List<E> items, Function<E, String> namespace, int threads, Function<E, T> work) {
        return inEach(items, namespace, threads, work, false);
    }

    /**
     * {@link #inEach} for work that writes sysctls under {@code /proc/sys/net} of each namespace: each
     * thread reads and writes them through a procfs of its own ({@link SysctlProcfs}), which keeps the
     * kernel's lookup of them from slowing down with every namespace the lab has. The work must not
     * start programs: they would run in the thread's private mount namespace.
     */
    public static <E, T> List<T> writingSysctlsInEach(List<E> items, Function<E, String> namespace, int threads, Function<E, T> work) {
        return inEach(items, namespace, threads, work, true);
    }

    private static <E, T> List<T> inEach(List<E> items, Function<E, String> namespace, int threads, Function<E, T> work,
                                         boolean ownProcfs) {
        if (items.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, items.size())),
                task -> Thread.ofPlatform().daemon().name("netns-worker").unstarted(task));
        List<Future<T>> futures = new ArrayList<>();
        // Each thread's own; the threads, and with them their mount namespaces, end with the call.
        ThreadLocal<SysctlProcfs> procfs = ThreadLocal.withInitial(SysctlProcfs::new);
        try {
            for (E item : items) {
                futures.add(pool.submit(() -> {
                    if (ownProcfs) {
                        procfs.get().beforeEntering();
                    }
                    NetworkNamespaces.enter(namespace.apply(item));
                    return work.apply(item);
                }));
            }
            List<T> results = new ArrayList<>(items.size());
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NamespaceException("interrupted while working in " + items.size() + " namespaces");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new NamespaceException(e.getCause().toString());
        } finally {
            // Interrupts the workers' waits for their programs, which then kill them; the rest is not begun.
            pool.shutdownNow();
            try {
                pool.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
