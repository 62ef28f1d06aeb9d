package io.periscope.dataplane.ovs;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The programmer against captured {@code ovs-vsctl --format=json --data=json list ...} output (from
 * ovsdb-server 3.x of Debian's openvswitch-switch): it adds what is missing in one transaction,
 * runs nothing once the node has it, removes its own bridge and mapping and nothing else, and undoes
 * its transaction when a later program fails.
 */
class OvsBridgeProgrammerChangesOnlyWhatDiffers {

    private static final List<String> READ = List.of("ovs-vsctl", "--db=unix:/ovs/db.sock", "--timeout=15", "--format=json");

    private static final NodeBridge SUB0 = new NodeBridge("br-submariner", "ovn-k8s-sub0", Optional.of("0a:58:a9:fe:fe:0a"), 1500,
            Ipv4Address.parse("169.254.254.10"), 29, "submariner_gateway");

    /** br-int (netdev) and a foreign br-foo; OVN-Kubernetes' own mapping. */
    private static final String BARE = """
            {"data":[["br-foo","",["uuid","p-foo"]],["br-int","netdev",["uuid","p-int"]]],"headings":["name","datapath_type","ports"]}
            {"data":[[["uuid","p-foo"],"br-foo",["uuid","i-foo"]],[["uuid","p-int"],"br-int",["uuid","i-int"]]],"headings":["_uuid","name","interfaces"]}
            {"data":[[["uuid","i-foo"],"br-foo","internal",["set",[]],["set",[]]],[["uuid","i-int"],"br-int","internal",["set",[]],["set",[]]]],"headings":["_uuid","name","type","mac","mtu_request"]}
            {"data":[[["map",[["ovn-bridge-mappings","physnet:breth0"],["system-id","east-gw"]]]]],"headings":["external_ids"]}
            """;

    /** The same with br-submariner as planned (captured after the programmer's transaction). */
    private static final String PROGRAMMED = """
            {"data":[["br-foo","",["uuid","p-foo"]],["br-submariner","netdev",["set",[["uuid","82beac16"],["uuid","db4e464b"]]]],["br-int","netdev",["uuid","p-int"]]],"headings":["name","datapath_type","ports"]}
            {"data":[[["uuid","p-foo"],"br-foo",["uuid","i-foo"]],[["uuid","82beac16"],"br-submariner",["uuid","dcd6dee6"]],[["uuid","p-int"],"br-int",["uuid","i-int"]],[["uuid","db4e464b"],"ovn-k8s-sub0",["uuid","5e17cb7b"]]],"headings":["_uuid","name","interfaces"]}
            {"data":[[["uuid","i-foo"],"br-foo","internal",["set",[]],["set",[]]],[["uuid","dcd6dee6"],"br-submariner","internal",["set",[]],["set",[]]],[["uuid","5e17cb7b"],"ovn-k8s-sub0","internal","0a:58:a9:fe:fe:0a",1500],[["uuid","i-int"],"br-int","internal",["set",[]],["set",[]]]],"headings":["_uuid","name","type","mac","mtu_request"]}
            {"data":[[["map",[["ovn-bridge-mappings","physnet:breth0,submariner_gateway:br-submariner"],["system-id","east-gw"]]]]],"headings":["external_ids"]}
            """;

    private static final String SUB0_UP = """
            [{"ifindex":7,"ifname":"ovn-k8s-sub0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500,"addr_info":[{"family":"inet","local":"169.254.254.10","prefixlen":29,"scope":"global"}]}]
            """;

    private static RecordingCommandRunner node(String database, Optional<String> sub0) {
        RecordingCommandRunner runner = new RecordingCommandRunner().answer(READ, database);
        runner.answer(RecordingCommandRunner.startsWith(List.of("ip", "-4", "-j", "addr", "show", "dev", "ovn-k8s-sub0")),
                c -> sub0.map(CommandResult::success).orElseGet(() -> new CommandResult(1, "", "Device \"ovn-k8s-sub0\" does not exist.")));
        runner.answer(List.of("ethtool", "-k", "ovn-k8s-sub0"), "Features for ovn-k8s-sub0:\ntx-checksumming: off\n");
        return runner;
    }

    private static List<String> changes(RecordingCommandRunner runner) {
        return runner.commands().stream().filter(c -> !RecordingCommandRunner.startsWith(READ).test(c))
                .filter(c -> !c.argv().contains("show") && !c.argv().contains("-k")).map(Command::toString).toList();
    }

    @Test
    void aNodeWithoutTheBridgeGetsItInOneTransactionWithTheIntegrationBridgesDatapath() {
        RecordingCommandRunner runner = node(BARE, Optional.empty());
        new OvsBridgeProgrammer(runner, Optional.of("unix:/ovs/db.sock")).program(List.of(SUB0));
        assertThat(changes(runner)).containsExactly(
                "ovs-vsctl --db=unix:/ovs/db.sock --timeout=15 -- --may-exist add-br br-submariner -- set bridge br-submariner datapath_type=netdev"
                        + " -- --may-exist add-port br-submariner ovn-k8s-sub0 -- set interface ovn-k8s-sub0 type=internal mtu_request=1500"
                        + " mac=\"0a:58:a9:fe:fe:0a\""
                        + " -- set open_vswitch . external_ids:ovn-bridge-mappings=\"physnet:breth0,submariner_gateway:br-submariner\"",
                "ip addr add 169.254.254.10/29 dev ovn-k8s-sub0",
                "ip link set ovn-k8s-sub0 up",
                "ethtool -K ovn-k8s-sub0 tx off");
    }

    @Test
    void aNodeThatHasTheBridgeRunsNothingButTheReads() {
        RecordingCommandRunner runner = node(PROGRAMMED, Optional.of(SUB0_UP));
        assertThat(new OvsBridgeProgrammer(runner, Optional.of("unix:/ovs/db.sock")).program(List.of(SUB0))).isEmpty();
        assertThat(changes(runner)).isEmpty();
    }

    @Test
    void aPlanWithoutTheBridgeDeletesItAndItsMappingOnlyKeepingForeignBridgesAndMappings() {
        RecordingCommandRunner runner = node(PROGRAMMED, Optional.of(SUB0_UP));
        new OvsBridgeProgrammer(runner, Optional.of("unix:/ovs/db.sock")).program(List.of());
        assertThat(changes(runner)).containsExactly("ovs-vsctl --db=unix:/ovs/db.sock --timeout=15 -- --if-exists del-br br-submariner"
                + " -- set open_vswitch . external_ids:ovn-bridge-mappings=\"physnet:breth0\"");
    }

    @Test
    void aFailedAddressUndoesTheTransactionAndLeavesTheNodeAsItWas() {
        RecordingCommandRunner runner = node(BARE, Optional.empty());
        runner.fail(List.of("ip", "addr", "add"), "RTNETLINK answers: Permission denied");
        OvsBridgeProgrammer programmer = new OvsBridgeProgrammer(runner, Optional.of("unix:/ovs/db.sock"));
        assertThatThrownBy(() -> programmer.program(List.of(SUB0))).isInstanceOf(BridgeProgrammingFailed.class)
                .hasMessageContaining("Permission denied").hasMessageContaining("were undone");
        assertThat(changes(runner)).last().hasToString("ovs-vsctl --db=unix:/ovs/db.sock --timeout=15"
                + " -- set open_vswitch . external_ids:ovn-bridge-mappings=\"physnet:breth0\" -- --if-exists del-br br-submariner");
    }

    @Test
    void aNodeWithoutIntegrationBridgeIsLeftAloneUntilOvnKubernetesMadeIt() {
        String noBrInt = BARE.replace("[\"br-int\",\"netdev\",[\"uuid\",\"p-int\"]]", "[\"br-x\",\"netdev\",[\"set\",[]]]");
        RecordingCommandRunner runner = node(noBrInt, Optional.empty());
        assertThatThrownBy(() -> new OvsBridgeProgrammer(runner, Optional.of("unix:/ovs/db.sock")).program(List.of(SUB0)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no integration bridge br-int");
        assertThat(changes(runner)).isEmpty();
    }
}
