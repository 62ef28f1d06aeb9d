package io.periscope.lab;

import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.up.LabUp;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When a phase of {@code up} fails, every namespace it created is removed again, and its state with them. */
class AFailedUpRemovesWhatItCreated {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void theAgentsFailingLeavesNoNamespaceAndNoState() {
        ClusterSet set = RunningLab.forTest(Examples.load(Examples.GLOBALNET_EGRESS), "failing");
        RunningLab lab = labs.planned(set);
        List<String> progress = new ArrayList<>();

        assertThatThrownBy(() -> new LabUp(ProcessCommandRunner.here(), lab.stateFile(), new FailingSubmarinerAgents())
                .run(Path.of("failing.yaml"), set, progress::add))
                .hasMessageContaining("iptables-restore refused line 3");

        assertThat(progress).anyMatch(l -> l.startsWith("lab up failed: removing what it created"));
        assertThat(lab.layout().namespaces()).noneMatch(NetworkNamespaces::exists);
        assertThat(lab.namespacesOnTheMachine()).isEmpty();
        assertThat(lab.stateFile().read(lab.layout().names().hash())).isEmpty();
    }
}
