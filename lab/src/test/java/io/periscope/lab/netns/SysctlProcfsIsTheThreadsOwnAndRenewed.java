package io.periscope.lab.netns;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sysctls written through a worker's own procfs land in each namespace they were meant for; the
 * worker mounts a fresh procfs every few namespaces, and none of its mounts is seen by the process's
 * other threads or the machine.
 */
class SysctlProcfsIsTheThreadsOwnAndRenewed {

    private NamedTestNamespaces namespaces;

    @BeforeEach
    void fiveNamespaces() {
        namespaces = NamedTestNamespaces.create("psp", 5);
    }

    @AfterEach
    void removeThem() {
        if (namespaces != null) {
            namespaces.close();
        }
    }

    @Test
    void everyNamespaceGetsItsOwnValueAndTheProcfsIsRenewedEveryTwo() throws Exception {
        String machineMounts = Files.readString(Path.of("/proc/self/mountinfo"));

        Set<String> procfsMounts = CompletableFuture.supplyAsync(() -> {
            SysctlProcfs procfs = new SysctlProcfs(2);
            Set<String> mounts = new LinkedHashSet<>();
            for (int i = 0; i < namespaces.size(); i++) {
                procfs.beforeEntering();
                NetworkNamespaces.enter(namespaces.get(i));
                SysctlWriter.write(Map.of("net.ipv4.ip_default_ttl", Integer.toString(100 + i)));
                assertThat(procfs.shared()).isFalse();
                mounts.add(sysctlNetInode());
            }
            return mounts;
        }, task -> Thread.ofPlatform().start(task)).get();

        assertThat(procfsMounts).as("a procfs of the thread's own, renewed every two namespaces").hasSize(3)
                .doesNotContain(CompletableFuture.supplyAsync(SysctlProcfsIsTheThreadsOwnAndRenewed::sysctlNetInode).get());
        for (int i = 0; i < namespaces.size(); i++) {
            assertThat(namespaces.read(i, "/proc/sys/net/ipv4/ip_default_ttl")).isEqualTo(Integer.toString(100 + i));
        }
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).as("the process's own mounts").isEqualTo(machineMounts);
    }

    /**
     * The inode number of {@code /proc/sys/net} as the calling thread sees it: a procfs numbers its
     * sysctl directories from a machine-wide counter as it first looks them up, so a fresh procfs
     * shows a new number, and the same procfs the same one (mount ids and device numbers would be reused).
     */
    private static String sysctlNetInode() {
        try {
            return Files.getAttribute(Path.of("/proc/sys/net"), "unix:ino").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
