package io.periscope.lab.ovn;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.ovs.BridgeProgrammingFailed;
import io.periscope.dataplane.ovs.NodeBridge;
import io.periscope.dataplane.ovs.OvsBridgeProgrammer;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The agents' keeper of br-submariner against a real node's Open vSwitch (ovsdb-server and
 * ovs-vswitchd with the userspace datapath, in a namespace of the test's): it makes the bridge, the
 * port with the plan's MAC and address and the mapping next to a foreign bridge's; run again it
 * changes nothing; a plan without the bridge removes it and only it; and an apply whose last program
 * fails leaves the node as it was. Root and Open vSwitch / OVN; run under
 * {@code flock /tmp/periscope-lab.lock}.
 */
class OvsBridgeProgrammerKeepsItsBridgeInARealOpenVswitch {

    private static final NodeBridge SUB0 = new NodeBridge("br-submariner", "ovn-k8s-sub0", Optional.of("02:0a:c0:a8:0a:02"), 1500,
            Ipv4Address.parse("169.254.254.10"), 29, "submariner_gateway");

    private final CommandRunner runner = ProcessCommandRunner.here();
    private final String namespace = "pkb" + ProcessHandle.current().pid() + "-n1";

    @Test
    void itMakesKeepsAndRemovesOnlyItsBridgeAndAFailedApplyLeavesTheNodeAsItWas() throws IOException {
        Assumptions.assumeTrue(NetworkNamespaces.runningAsRoot(), "the test creates a network namespace, which needs root");
        Optional<String> unavailable = OvnPrograms.datapathUnavailable();
        Assumptions.assumeTrue(unavailable.isEmpty(), unavailable::orElseThrow);

        Path runDirectory = Files.createTempDirectory("pkb").resolve("c1");
        try {
            runner.run(Command.of("ip", "netns", "add", TestNamespace.deletedOnExit(namespace)));
            runner.run(Command.of("ip", "link", "add", "eth0", "type", "veth", "peer", "name", "eth1").inNamespace(namespace));
            runner.run(Command.of("ip", "addr", "add", "172.30.0.1/24", "dev", "eth0").inNamespace(namespace));
            runner.run(Command.of("ip", "link", "set", "eth0", "up").inNamespace(namespace));
            OvnClusterSpec spec = new OvnClusterSpec("c1", Ipv4Prefix.parse("10.244.0.0/16"), Ipv4Prefix.parse("100.64.0.0/16"), List.of(
                    new OvnNodeSpec("n1", namespace, "eth0", Ipv4Address.parse("172.30.0.1"), 24, Ipv4Prefix.parse("10.244.1.0/24"))));
            try (OvnCluster cluster = OvnCluster.start(runner, spec, runDirectory)) {
                String database = "unix:" + OvnChassis.databaseSocket(runDirectory.resolve("n1"));
                // Someone else's bridge and mapping, as OVN-Kubernetes has its physical network's.
                vsctl(database, "add-br", "br-foo", "--", "set", "bridge", "br-foo", "datapath_type=netdev",
                        "--", "set", "open_vswitch", ".", "external_ids:ovn-bridge-mappings=\"physnet:br-foo\"");
                CommandRunner inNode = ProcessCommandRunner.inNamespace(namespace);
                OvsBridgeProgrammer programmer = new OvsBridgeProgrammer(inNode, Optional.of(database));

                assertThat(programmer.program(List.of(SUB0))).isNotEmpty();
                assertThat(vsctl(database, "list-ports", "br-submariner")).contains("ovn-k8s-sub0");
                assertThat(mappings(database)).isEqualTo("physnet:br-foo,submariner_gateway:br-submariner");
                assertThat(inNode.run(Command.of("ip", "-o", "addr", "show", "dev", "ovn-k8s-sub0")).stdout()).contains("169.254.254.10/29");
                assertThat(inNode.run(Command.of("ip", "-o", "link", "show", "dev", "ovn-k8s-sub0")).stdout()).contains("02:0a:c0:a8:0a:02");
                assertThat(programmer.program(List.of(SUB0))).as("a second pass on a node that has it").isEmpty();

                assertThat(programmer.program(List.of())).isNotEmpty();
                assertThat(vsctl(database, "list-br")).doesNotContain("br-submariner").contains("br-foo", "br-int", "breth0");
                assertThat(mappings(database)).isEqualTo("physnet:br-foo");

                // The link's last program fails: the bridge, its port and the mapping go again.
                CommandRunner failingUp = command -> command.argv().equals(List.of("ip", "link", "set", "ovn-k8s-sub0", "up"))
                        ? new CommandResult(2, "", "RTNETLINK answers: refused by the test") : inNode.execute(command);
                assertThatThrownBy(() -> new OvsBridgeProgrammer(failingUp, Optional.of(database)).program(List.of(SUB0)))
                        .isInstanceOf(BridgeProgrammingFailed.class).hasMessageContaining("were undone");
                assertThat(vsctl(database, "list-br")).doesNotContain("br-submariner").contains("br-foo");
                assertThat(mappings(database)).isEqualTo("physnet:br-foo");
                assertThat(inNode.execute(Command.of("ip", "link", "show", "dev", "ovn-k8s-sub0")).succeeded()).isFalse();
            }
            assertThat(runDirectory).doesNotExist();
        } finally {
            OvnDaemons.stopAllUnder(runDirectory);
            runner.execute(Command.of("ip", "netns", "del", namespace));
            Files.deleteIfExists(runDirectory.getParent());
        }
        assertThat(NetworkNamespaces.exists(namespace)).isFalse();
    }

    private String vsctl(String database, String... arguments) {
        List<String> argv = new java.util.ArrayList<>(List.of("ovs-vsctl", "--db=" + database, "--timeout=15"));
        argv.addAll(List.of(arguments));
        return runner.run(new Command(argv, "")).stdout();
    }

    private String mappings(String database) {
        // ovs-vsctl quotes a string with a colon or comma in it.
        return vsctl(database, "--if-exists", "get", "open_vswitch", ".", "external_ids:ovn-bridge-mappings").strip().replace("\"", "");
    }
}
