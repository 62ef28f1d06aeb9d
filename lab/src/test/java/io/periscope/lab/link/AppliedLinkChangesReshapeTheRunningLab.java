package io.periscope.lab.link;

import io.periscope.lab.RunningLab;
import io.periscope.lab.apply.LabApply;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.lab.supervisor.SupervisorStatus;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab apply} of a file whose links changed: the supervisor's link loop reshapes the running
 * lab before apply returns (a new rate replaces the device's qdiscs, a cable's loss becomes rules, an
 * uplink the file no longer shapes loses the lab's qdiscs), and puts back what a person changes by
 * hand on its next pass.
 */
class AppliedLinkChangesReshapeTheRunningLab {

    @TempDir
    Path directory;

    @Test
    void aNewRateALossAndAnUplinkGoneAreTakenInPlace() throws Exception {
        RunningLab.assumeRoot();
        String name = "labtest-linkapply-" + ProcessHandle.current().pid();
        Path file = directory.resolve(name + ".yaml");
        ClusterSet first = LinkedTopologies.twoClusters(name, "rate: 20mbit", "rate: 50mbit", "");
        Files.writeString(file, TopologyWriter.write(first));
        try (RunningLab lab = RunningLab.upFrom(file, TopologyLoader.load(file), directory.resolve("state"))) {
            String worker = lab.layout().requireHost(HostId.node("east", "east-worker")).namespace();
            String gateway = lab.layout().requireHost(HostId.node("east", "east-gw")).namespace();
            assertThat(lab.inNamespace(worker, "tc", "class", "show", "dev", "eth0")).contains("rate 20Mbit ceil 20Mbit");

            Files.writeString(file, TopologyWriter.write(LinkedTopologies.twoClusters(name, "rate: 5mbit", "", "loss: 2%")));
            List<String> progress = new ArrayList<>();
            LabApply.Applied applied = new LabApply(lab.stateFile()).run(file, TopologyLoader.load(file), progress::add);

            assertThat(applied.change().changed()).containsExactly("uplinks", "cables");
            assertThat(progress).contains("apply: links as the file asks: 2 devices shaped in 2 namespaces; loss on 1 cable; delay on none");
            assertThat(lab.inNamespace(worker, "tc", "class", "show", "dev", "eth0")).contains("rate 5Mbit ceil 5Mbit");
            assertThat(lab.inNamespace(gateway, "tc", "qdisc", "show", "dev", "eth0")).startsWith("qdisc noqueue 0: root");
            assertThat(lab.inNamespace(gateway, "iptables-save", "-t", "mangle"))
                    .contains("-A LAB-LINK-CABLE -d 172.31.42.2/32 -o wan0 -m statistic --mode random --probability 0.02000000002 -j DROP");

            lab.inNamespace(worker, "tc", "qdisc", "del", "dev", "eth0", "root");
            long deadline = System.nanoTime() + 25_000_000_000L;
            String shown = "";
            while (System.nanoTime() < deadline && !(shown = lab.inNamespace(worker, "tc", "class", "show", "dev", "eth0")).contains("rate 5Mbit")) {
                Thread.sleep(200);
            }
            assertThat(shown).as("the link loop's next pass put the deleted qdiscs back").contains("rate 5Mbit ceil 5Mbit");
            SupervisorStatus status = new SupervisorFiles(lab.stateFile().directoryFor(lab.layout().names().hash())).readStatus().orElseThrow();
            assertThat(status.links().converged()).isEqualTo(applied.revision());
            assertThat(status.links().lastError()).isEmpty();
        }
    }
}
