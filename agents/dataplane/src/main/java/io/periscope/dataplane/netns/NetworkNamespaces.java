package io.periscope.dataplane.netns;

import com.sun.jna.Library;
import com.sun.jna.Native;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Opens sockets in another network namespace. {@code setns(2)} moves only the calling thread, and a
 * socket stays in the namespace it was created in: so a short-lived platform thread enters the
 * namespace, creates what it must, and ends, while the caller never leaves its own namespace.
 */
public final class NetworkNamespaces {

    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int CLONE_NEWNET = 0x40000000;

    private interface Libc extends Library {
        Libc LIBC = Native.load("c", Libc.class);

        int open(String path, int flags);

        int setns(int fd, int type);

        int close(int fd);
    }

    private NetworkNamespaces() {
    }

    /**
     * Runs {@code action} on a thread inside the named namespace ({@code /run/netns/NAME}, as
     * {@code ip netns} names them) and returns what it made.
     *
     * @throws IllegalStateException when the namespace cannot be entered; what {@code action} throws
     */
    public static <T> T createIn(String namespace, String what, Supplier<T> action) {
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().name(what + "-" + namespace).start(() -> {
            try {
                int fd = Libc.LIBC.open("/run/netns/" + namespace, O_RDONLY | O_CLOEXEC);
                if (fd < 0) {
                    throw new IllegalStateException("cannot open network namespace " + namespace + ": errno " + Native.getLastError());
                }
                try {
                    if (Libc.LIBC.setns(fd, CLONE_NEWNET) != 0) {
                        throw new IllegalStateException("cannot enter network namespace " + namespace + ": errno " + Native.getLastError());
                    }
                } finally {
                    Libc.LIBC.close(fd);
                }
                outcome.set(new Made(action.get()));
            } catch (RuntimeException e) {
                outcome.set(e);
            }
            // The thread ends here, and its namespace with it; what it created stays in the namespace.
        });
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while opening " + what + " in " + namespace);
        }
        return switch (outcome.get()) {
            case Made made -> {
                @SuppressWarnings("unchecked") T value = (T) made.value();
                yield value;
            }
            case RuntimeException e -> throw e;
            default -> throw new IllegalStateException("nothing opened in " + namespace);
        };
    }

    private record Made(Object value) {
    }
}
