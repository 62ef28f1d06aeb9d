package io.periscope.dataplane;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.ProcessCommandRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A throwaway network namespace ({@code psc-t-} and a random suffix) for tests against the real
 * kernel. Tests create it in {@code @BeforeEach} and close it in {@code @AfterEach}, which deletes
 * it and only it (and a JVM that ends before that, on a signal, deletes it from a shutdown hook); the
 * machine's own namespace is never touched.
 */
public final class TestNamespace implements AutoCloseable {

    private static final List<String> TOOLS = List.of("ip", "bridge", "iptables-save", "iptables-restore", "ipset", "sysctl");
    /** The namespaces not closed yet: a JVM stopped by a signal mid-test (Ctrl-C, a timeout) deletes them on its way out. */
    private static final Set<String> OPEN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() ->
                OPEN.forEach(left -> ProcessCommandRunner.here().execute(Command.of("ip", "netns", "del", left)))));
    }

    private final String name;
    private final ProcessCommandRunner runner;

    private TestNamespace(String name) {
        this.name = name;
        this.runner = ProcessCommandRunner.inNamespace(name);
    }

    /**
     * For a test that creates a namespace of its own: the JVM deletes {@code name} on its way out if it
     * is still there (a signal stopped the test before its own cleanup). Call it before creating the
     * namespace, since the signal may come while {@code ip} creates it.
     *
     * @return {@code name}
     */
    public static String deletedOnExit(String name) {
        OPEN.add(name);
        return name;
    }

    /** Skips the calling test unless it runs as root with the kernel tools installed. */
    public static void assumeKernelAvailable() {
        assumeTrue(isRoot(), "needs root to create network namespaces (run as root; skipped)");
        List<String> missing = TOOLS.stream().filter(tool -> !onPath(tool)).toList();
        assumeTrue(missing.isEmpty(), "needs " + String.join(", ", missing)
                + " (Debian packages iproute2, iptables, ipset, procps; skipped)");
    }

    public static TestNamespace create() {
        assumeKernelAvailable();
        byte[] suffix = new byte[4];
        new SecureRandom().nextBytes(suffix);
        TestNamespace namespace = new TestNamespace("psc-t-" + HexFormat.of().formatHex(suffix));
        OPEN.add(namespace.name);   // before it exists: a signal may come while ip creates it
        ProcessCommandRunner.here().run(Command.of("ip", "netns", "add", namespace.name));
        namespace.run("ip", "link", "set", "lo", "up");
        return namespace;
    }

    public String name() {
        return name;
    }

    public CommandRunner runner() {
        return runner;
    }

    /** Runs a command inside the namespace and returns what it printed. */
    public String run(String... argv) {
        return runner.run(Command.of(argv)).stdout();
    }

    public String runWithInput(String input, String... argv) {
        return runner.run(Command.of(argv).withStdin(input)).stdout();
    }

    /** A veth pair inside the namespace, both ends up, {@code name} with {@code cidr}. */
    public void veth(String name, String cidr) {
        run("ip", "link", "add", name, "type", "veth", "peer", "name", name + "-peer");
        run("ip", "addr", "add", cidr, "dev", name);
        run("ip", "link", "set", name, "up");
        run("ip", "link", "set", name + "-peer", "up");
    }

    @Override
    public void close() {
        ProcessCommandRunner.here().run(Command.of("ip", "netns", "del", name));
        OPEN.remove(name);
    }

    private static boolean isRoot() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .anyMatch(line -> line.matches("Uid:\\s+0\\s.*"));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean onPath(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        return dirs.stream().filter(d -> !d.isEmpty()).anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
    }
}
