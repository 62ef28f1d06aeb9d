package io.periscope.lab.up;

import io.periscope.lab.Examples;
import io.periscope.lab.LabRefusal;
import io.periscope.lab.agent.LayerAgent;
import io.periscope.lab.agent.LayerAgents;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabNames;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.periscope.lab.machine.MachineCapacity;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every refusal of {@code up} comes before the first namespace: only the machine's own network is read. */
class LabUpRefusesBeforeCreatingAnything {

    @TempDir
    Path state;

    private final ClusterSet set = Examples.load(Examples.MAG_GLOBALNET);

    static final class NoAgents implements LayerAgents {
        public LayerAgent kubeProxy(HostNamespace node) {
            throw new AssertionError("no agent may run after a refusal");
        }

        public LayerAgent submariner(HostNamespace node) {
            throw new AssertionError("no agent may run after a refusal");
        }

        public void close() {
        }
    }

    /** A machine on 192.0.2.0/24, with one more route given as JSON. */
    static RecordingCommandRunner machine(String extraRoute) {
        return new RecordingCommandRunner(invocation -> {
            String line = String.join(" ", invocation.argv());
            if (line.equals("ip -j -4 addr show")) {
                return new CommandResult(0, "[{\"ifname\":\"eth0\",\"addr_info\":[{\"family\":\"inet\",\"local\":\"192.0.2.2\",\"prefixlen\":24}]}]", "");
            }
            if (line.equals("ip -j -4 route show")) {
                return new CommandResult(0, "[{\"dst\":\"default\",\"gateway\":\"192.0.2.1\",\"dev\":\"eth0\"}" + extraRoute + "]", "");
            }
            throw new AssertionError("the refusal should have come before " + invocation);
        });
    }

    @Test
    void withoutRootItSaysSoAndRunsNothing() {
        RecordingCommandRunner runner = machine("");

        assertThatThrownBy(() -> new LabUp(runner, new LabStateFile(state), new NoAgents(), () -> false).run(Path.of("f.yaml"), set, line -> { }))
                .isInstanceOf(LabRefusal.class).hasMessage("lab up needs root to create network namespaces; run it as root (for example with sudo)");
        assertThat(runner.commands()).isEmpty();
    }

    @Test
    void anOvnKubernetesClusterOnAMachineWithoutOvnIsRefusedRatherThanBuiltAsAKubeProxyOne() throws Exception {
        ClusterSet ovn = io.periscope.model.load.TopologyLoader.parse("""
                clusters:
                  - name: east
                    cni: ovn-kubernetes
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}]
                """, "ovn.yaml");

        assertThatThrownBy(() -> LabUp.refuseOvn(Path.of("ovn.yaml"), ovn, java.util.Optional.of("missing ovn-northd (Debian ovn-central)")))
                .isInstanceOf(LabRefusal.class)
                .hasMessageStartingWith("ovn.yaml: cluster east uses cni: ovn-kubernetes, and this machine cannot run OVN: missing ovn-northd")
                .hasMessageContaining("periscope trace ovn.yaml");
        LabUp.refuseOvn(Path.of("ovn.yaml"), ovn, java.util.Optional.empty());
        LabUp.refuseOvn(Path.of("f.yaml"), set, java.util.Optional.of("missing everything"));
    }

    @Test
    void addressesTheMachineUsesAreRefusedWithTheFieldAndTheMachinesRoute() {
        RecordingCommandRunner runner = machine(",{\"dst\":\"10.0.0.0/8\",\"gateway\":\"192.0.2.1\",\"dev\":\"eth0\"}");

        assertThatThrownBy(() -> new LabUp(runner, new LabStateFile(state), new NoAgents(), () -> true).run(Path.of("f.yaml"), set, line -> { }))
                .isInstanceOf(LabRefusal.class)
                .hasMessageContaining("f.yaml: the topology uses addresses of this machine's own network:")
                .hasMessageContaining("clusters[0] (cluster1).podCIDRs[0] = 10.0.0.0/16 overlaps the machine's route 10.0.0.0/8 via 192.0.2.1 dev eth0")
                .hasMessageContaining("change these addresses in the file");
        assertThat(runner.commands()).extracting(Command::toString).containsExactly("ip -j -4 addr show", "ip -j -4 route show");
        assertThat(state.toFile().list()).isEmpty();
    }

    @Test
    void aLabOfTheSameTopologyAlreadyUpIsNotBuiltTwice() {
        LabStateFile stateFile = new LabStateFile(state);
        LabNames names = LabNames.of(set.name());
        stateFile.write(new LabState(set.name(), "f.yaml", names.hash(), List.of(names.prefix() + "x"), LabState.CONVERGED));

        assertThatThrownBy(() -> new LabUp(machine(""), stateFile, new NoAgents(), () -> true).run(Path.of("f.yaml"), set, line -> { }))
                .isInstanceOf(LabRefusal.class)
                .hasMessageContaining("a lab of topology 'mag-globalnet' is already up")
                .hasMessageContaining("run 'lab down f.yaml' first");
    }

    @Test
    void aLabBiggerThanTheMachineCanHoldIsRefusedWithTheNumbers() {
        MachineCapacity small = new MachineCapacity(OptionalLong.of(600 * 1024), OptionalLong.of(100_000), 0, OptionalLong.of(100_000), 40);

        assertThatThrownBy(() -> new LabUp(machine(""), new LabStateFile(state), new NoAgents(), () -> true, () -> small)
                .run(Path.of("f.yaml"), set, line -> { }))
                .isInstanceOf(LabRefusal.class)
                .hasMessageStartingWith("f.yaml: a lab of 11 namespaces (8 hosts, 3 switches) does not fit on this machine:")
                .hasMessageContaining("memory: 11 namespaces need about 523 MiB")
                .hasMessageContaining("nothing was created");
        assertThat(state.toFile().list()).isEmpty();
    }
}
