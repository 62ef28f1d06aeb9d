package io.periscope.lab.machine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * What this machine can still hold of a lab: available memory ({@code MemAvailable} of
 * {@code /proc/meminfo}), the network namespaces the kernel allows ({@code user.max_net_namespaces})
 * and the mounts ({@code fs.mount-max}: every {@code ip netns add} bind-mounts the namespace under
 * {@code /run/netns}). {@code lab up} compares a topology with it before creating anything, so a
 * file too big for the machine is refused with the numbers instead of failing (or swapping the
 * machine to a halt) halfway through thousands of namespaces.
 *
 * @param memAvailableKib    empty where the kernel does not say
 * @param maxNetNamespaces   empty where the kernel does not say
 * @param netNamespacesNow   the namespaces under {@code /run/netns} now
 * @param mountMax           empty where the kernel does not say
 * @param mountsNow          the mounts of this mount namespace now
 */
public record MachineCapacity(OptionalLong memAvailableKib, OptionalLong maxNetNamespaces, long netNamespacesNow,
                              OptionalLong mountMax, long mountsNow) {

    /**
     * What one lab namespace costs in kernel memory, taken high. Measured here: 0.33 MiB of slab per
     * namespace holding one veth pair with an address; nodes hold more (rules, ipsets, routes,
     * conntrack), so the estimate takes 1 MiB per namespace.
     */
    public static final long KIB_PER_NAMESPACE = 1024;
    /** The {@code lab up} JVM itself, with one thread per node while the agents reconcile. */
    public static final long KIB_FOR_THE_JVM = 512 * 1024;
    /** The part of the available memory a lab may take: the machine must go on working beside it. */
    public static final double SHARE_OF_AVAILABLE = 0.8;

    public static MachineCapacity read() {
        return new MachineCapacity(meminfo("MemAvailable"), number(Path.of("/proc/sys/user/max_net_namespaces")), countNetNamespaces(),
                number(Path.of("/proc/sys/fs/mount-max")), countLines(Path.of("/proc/self/mounts")));
    }

    /** The estimate for a lab of {@code namespaces} namespaces, in KiB. */
    public static long estimateKib(int namespaces) {
        return namespaces * KIB_PER_NAMESPACE + KIB_FOR_THE_JVM;
    }

    /** Why a lab of {@code namespaces} namespaces does not fit here, with the numbers; empty when it fits. */
    public Optional<String> refusal(int namespaces) {
        List<String> reasons = new ArrayList<>();
        if (memAvailableKib.isPresent()) {
            long estimate = estimateKib(namespaces);
            long allowed = (long) (memAvailableKib.getAsLong() * SHARE_OF_AVAILABLE);
            if (estimate > allowed) {
                reasons.add("memory: " + namespaces + " namespaces need about " + mib(estimate) + " (" + KIB_PER_NAMESPACE / 1024
                        + " MiB each, " + mib(KIB_FOR_THE_JVM) + " for periscope), and " + Math.round(SHARE_OF_AVAILABLE * 100)
                        + "% of the " + mib(memAvailableKib.getAsLong()) + " available (MemAvailable in /proc/meminfo) is " + mib(allowed));
            }
        }
        if (maxNetNamespaces.isPresent() && netNamespacesNow + namespaces > maxNetNamespaces.getAsLong()) {
            reasons.add("network namespaces: " + namespaces + " more than the " + netNamespacesNow + " there are now exceeds the kernel's limit of "
                    + maxNetNamespaces.getAsLong() + " (sysctl user.max_net_namespaces)");
        }
        if (mountMax.isPresent() && mountsNow + namespaces > mountMax.getAsLong()) {
            reasons.add("mounts: each namespace is a mount under /run/netns, and " + namespaces + " more than the " + mountsNow
                    + " mounts there are now exceeds the limit of " + mountMax.getAsLong() + " (sysctl fs.mount-max)");
        }
        return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("\n  ", reasons));
    }

    private static String mib(long kib) {
        return kib >= 10 * 1024 * 1024 ? String.format("%.1f GiB", kib / 1024.0 / 1024.0) : (kib / 1024) + " MiB";
    }

    private static OptionalLong meminfo(String field) {
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            return lines.filter(l -> l.startsWith(field + ":")).findFirst()
                    .map(l -> OptionalLong.of(Long.parseLong(l.substring(field.length() + 1).replace("kB", "").strip())))
                    .orElse(OptionalLong.empty());
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    private static OptionalLong number(Path file) {
        try {
            // Not Files.readString: it sizes its read by the file's size, which /proc reports as 0, and
            // returned "9" of "96365".
            try (InputStream in = Files.newInputStream(file)) {
                return OptionalLong.of(Long.parseLong(new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip()));
            }
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    private static long countNetNamespaces() {
        try (Stream<Path> entries = Files.list(Path.of("/run/netns"))) {
            return entries.count();
        } catch (IOException e) {
            return 0;
        }
    }

    private static long countLines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
