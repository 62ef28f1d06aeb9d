package io.periscope.lab.netns;

import com.sun.jna.Native;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Moves the calling thread into a named network namespace, the way {@code ip netns exec} does for a
 * process. {@code setns(2)} changes only the calling thread (and what it starts later), so callers
 * use a thread of their own per namespace, a platform thread that lives as long as the work in that
 * namespace: a virtual or pooled thread could carry the namespace into unrelated work.
 */
public final class NetworkNamespaces {

    /** Where {@code ip netns add} mounts named namespaces. */
    public static final Path NAMED = Path.of("/var/run/netns");

    private NetworkNamespaces() {
    }

    /** @throws NamespaceException when the namespace does not exist or cannot be entered */
    public static void enter(String name) {
        Path file = NAMED.resolve(name);
        if (!Files.exists(file)) {
            throw new NamespaceException("network namespace " + name + " does not exist (no " + file + ")");
        }
        int fd = LibC.INSTANCE.open(file.toString(), LibC.O_RDONLY | LibC.O_CLOEXEC);
        if (fd < 0) {
            throw new NamespaceException("cannot open " + file + ": errno " + Native.getLastError());
        }
        try {
            if (LibC.INSTANCE.setns(fd, LibC.CLONE_NEWNET) != 0) {
                throw new NamespaceException("cannot enter network namespace " + name + ": errno " + Native.getLastError()
                        + " (entering a namespace needs root)");
            }
        } finally {
            LibC.INSTANCE.close(fd);
        }
    }

    /** Whether this process runs with root's effective user id, which creating namespaces needs. */
    public static boolean runningAsRoot() {
        return LibC.INSTANCE.geteuid() == 0;
    }

    public static boolean exists(String name) {
        return Files.exists(NAMED.resolve(name));
    }
}
