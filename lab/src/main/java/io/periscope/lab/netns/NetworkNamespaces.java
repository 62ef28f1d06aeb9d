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
        enterFile(file, name);
    }

    /**
     * Moves the calling thread into the namespace the process started in (its first thread's), for
     * a thread that must open sockets there whichever thread created it: a thread starts in its
     * creator's namespace, which may be a lab namespace.
     */
    public static void enterTheProcessNamespace() {
        enterFile(Path.of("/proc/self/ns/net"), "of this process");
    }

    private static void enterFile(Path file, String name) {
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

    /**
     * The processes inside each of the named namespaces given, by one pass over {@code /proc}
     * ({@code /proc/PID/ns/net} names the namespace's inode): what {@code ip netns pids} answers for
     * one namespace, without starting a program per namespace, which for a lab of thousands took
     * minutes.
     */
    public static java.util.Map<String, java.util.List<Long>> processesIn(java.util.Collection<String> names) {
        java.util.Map<Object, String> byInode = new java.util.HashMap<>();
        for (String name : names) {
            try {
                byInode.put(Files.getAttribute(NAMED.resolve(name), "unix:ino"), name);
            } catch (java.io.IOException | UnsupportedOperationException e) {
                // gone already, or not a Unix file system: nothing to find in it
            }
        }
        java.util.Map<String, java.util.List<Long>> inside = new java.util.TreeMap<>();
        if (byInode.isEmpty()) {
            return inside;
        }
        try (java.util.stream.Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.filter(e -> e.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                try {
                    String link = Files.readSymbolicLink(entry.resolve("ns/net")).toString();
                    if (link.startsWith("net:[") && link.endsWith("]")) {
                        String name = byInode.get(Long.parseLong(link.substring(5, link.length() - 1)));
                        if (name != null) {
                            inside.computeIfAbsent(name, n -> new java.util.ArrayList<>()).add(Long.parseLong(entry.getFileName().toString()));
                        }
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    // the process ended meanwhile, or is not ours to look at
                }
            }
        } catch (java.io.IOException e) {
            throw new NamespaceException("cannot list /proc: " + e.getMessage());
        }
        return inside;
    }
}
