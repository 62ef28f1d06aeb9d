package io.periscope.lab.netns;

/**
 * A procfs of the calling thread's own, mounted afresh every {@link #NAMESPACES_PER_MOUNT} namespaces
 * for a worker that writes the sysctls of thousands of namespaces one after the other.
 *
 * <p>Why: the kernel caches one {@code /proc/sys/net/ipv4} (and {@code ipv6}, ...) directory entry
 * per network namespace, all under the one {@code /proc/sys/net} entry of a procfs and with the same
 * name, so in the same hash chain; a namespace's first lookup of {@code ipv4} compares its way
 * through every other namespace's before it makes its own. With 4,000 namespaces that is about 1 ms
 * per first lookup, twice per namespace (ipv4 and ipv6), growing with the lab: most of the sysctls
 * phase. The entries belong to the procfs instance, so a fresh one starts with short chains.
 *
 * <p>The mount is the thread's alone: the thread first moves into a mount namespace of its own (a
 * copy of the process's, as {@code ip netns exec} makes one, kept a slave so nothing mounted in it
 * reaches the machine), and it ends with the thread. Where any step is refused (no
 * {@code CAP_SYS_ADMIN}, a container that forbids mounting procfs), the thread keeps the shared
 * {@code /proc}: the same writes, only slower.
 */
final class SysctlProcfs {

    /** Short enough that a chain costs little to walk, long enough that mounting costs little. */
    static final int NAMESPACES_PER_MOUNT = 200;

    private final int namespacesPerMount;
    private boolean refused;
    private int entered;

    SysctlProcfs() {
        this(NAMESPACES_PER_MOUNT);
    }

    SysctlProcfs(int namespacesPerMount) {
        this.namespacesPerMount = namespacesPerMount;
    }

    /** Whether the thread still uses the process's shared {@code /proc}: a step of making its own was refused. */
    boolean shared() {
        return refused;
    }

    /** Call before the thread enters each namespace whose sysctls it will write. */
    void beforeEntering() {
        if (refused) {
            return;
        }
        if (entered == 0 && (LibC.INSTANCE.unshare(LibC.CLONE_FS | LibC.CLONE_NEWNS) != 0
                || LibC.INSTANCE.mount("none", "/", null, LibC.MS_REC | LibC.MS_SLAVE, null) != 0)) {
            refused = true;
            return;
        }
        if (entered % namespacesPerMount == 0) {
            if (entered > 0) {
                LibC.INSTANCE.umount2("/proc", LibC.MNT_DETACH);
            }
            if (LibC.INSTANCE.mount("proc", "/proc", "proc", 0, null) != 0) {
                // The copied /proc is there again: the shared procfs, as before.
                refused = true;
                return;
            }
        }
        entered++;
    }
}
