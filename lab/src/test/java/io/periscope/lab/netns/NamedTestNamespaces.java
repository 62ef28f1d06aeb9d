package io.periscope.lab.netns;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import org.junit.jupiter.api.Assumptions;

import java.util.ArrayList;
import java.util.List;

/**
 * A few empty named network namespaces for one test ({@code PREFIX<pid>-<i>}), removed by
 * {@link #close}, and by the JVM on its way out when a signal stops the test first. Skips the test
 * when not run as root.
 */
final class NamedTestNamespaces implements AutoCloseable {

    private final ProcessCommandRunner here = ProcessCommandRunner.here();
    private final List<String> names = new ArrayList<>();

    private NamedTestNamespaces() {
    }

    static NamedTestNamespaces create(String prefix, int count) {
        Assumptions.assumeTrue(NetworkNamespaces.runningAsRoot(), "creates network namespaces, which needs root");
        NamedTestNamespaces namespaces = new NamedTestNamespaces();
        for (int i = 0; i < count; i++) {
            String name = prefix + ProcessHandle.current().pid() + "-" + i;
            namespaces.here.run(Command.of("ip", "netns", "add", TestNamespace.deletedOnExit(name)));
            namespaces.names.add(name);
        }
        return namespaces;
    }

    String get(int index) {
        return names.get(index);
    }

    int size() {
        return names.size();
    }

    /** What {@code cat FILE} prints inside the namespace, stripped. */
    String read(int index, String file) {
        return here.run(Command.of("ip", "netns", "exec", names.get(index), "cat", file)).stdout().strip();
    }

    @Override
    public void close() {
        names.forEach(ns -> here.execute(Command.of("ip", "netns", "del", ns)));
    }
}
