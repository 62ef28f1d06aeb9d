package io.periscope.lab.netns;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A few threads entering namespaces in turn: what each item's work writes under {@code /proc/sys/net}
 * and what the programs it starts change land in that item's namespace, and in no other.
 */
class NamespaceWorkersWorkInsideEachNamespace {

    private final ProcessCommandRunner here = ProcessCommandRunner.here();
    private NamedTestNamespaces namespaces;

    @BeforeEach
    void sixNamespaces() {
        namespaces = NamedTestNamespaces.create("pkw", 6);
    }

    @AfterEach
    void removeThem() {
        if (namespaces != null) {
            namespaces.close();
        }
    }

    @Test
    void sysctlsAndProgramsOfEachItemLandInItsOwnNamespace() {
        List<Integer> items = IntStream.range(0, namespaces.size()).boxed().toList();

        List<String> done = NamespaceWorkers.inEach(items, namespaces::get, 3, i -> {
            SysctlWriter.write(Map.of("net.ipv4.ip_default_ttl", Integer.toString(100 + i)));
            here.run(Command.of("ip", "-batch", "-").withStdin("link set lo mtu " + (2000 + i) + "\n"));
            return "item " + i;
        });

        assertThat(done).containsExactly("item 0", "item 1", "item 2", "item 3", "item 4", "item 5");
        for (int i = 0; i < namespaces.size(); i++) {
            String ns = namespaces.get(i);
            assertThat(namespaces.read(i, "/proc/sys/net/ipv4/ip_default_ttl")).isEqualTo(Integer.toString(100 + i));
            assertThat(here.run(Command.of("ip", "-n", ns, "-o", "link", "show", "lo")).stdout()).contains("mtu " + (2000 + i) + " ");
        }
    }

    /** Through each worker's own procfs ({@link SysctlProcfs}), with nothing mounted where the process's other threads look. */
    @Test
    void sysctlsWrittenThroughTheWorkersOwnProcfsLandInEachItemsNamespace() throws IOException {
        String mounts = Files.readString(Path.of("/proc/self/mountinfo"));
        List<Integer> items = IntStream.range(0, namespaces.size()).boxed().toList();

        NamespaceWorkers.writingSysctlsInEach(items, namespaces::get, 2, i -> {
            SysctlWriter.write(Map.of("net.ipv4.ip_default_ttl", Integer.toString(200 + i)));
            return i;
        });

        for (int i = 0; i < namespaces.size(); i++) {
            assertThat(namespaces.read(i, "/proc/sys/net/ipv4/ip_default_ttl")).isEqualTo(Integer.toString(200 + i));
        }
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).isEqualTo(mounts);
    }

    @Test
    void theFirstFailureIsRethrownAsItsWorkThrewIt() {
        List<Integer> items = IntStream.range(0, namespaces.size()).boxed().toList();

        assertThatThrownBy(() -> NamespaceWorkers.inEach(items, namespaces::get, 2, i -> {
            if (i == 3) {
                throw new IllegalStateException("item 3 refused");
            }
            return i;
        })).isInstanceOf(IllegalStateException.class).hasMessage("item 3 refused");
    }

    @Test
    void aNamespaceThatDoesNotExistFailsTheCall() {
        String missing = "pkw" + ProcessHandle.current().pid() + "-missing";

        assertThatThrownBy(() -> NamespaceWorkers.inEach(List.of(missing), name -> name, 2, name -> name))
                .isInstanceOf(NamespaceException.class).hasMessageContaining(missing + " does not exist");
    }
}
