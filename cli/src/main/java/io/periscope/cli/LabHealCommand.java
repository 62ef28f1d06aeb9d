package io.periscope.cli;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.failover.LabFailure;
import io.periscope.lab.failover.UpLab;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code periscope lab heal}: undoes exactly what {@code lab fail} changed on a node. */
@Command(name = "heal", description = "As root, undo exactly what 'lab fail' changed on a node of the running lab.")
public final class LabHealCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Parameters(index = "1", paramLabel = "CLUSTER/NODE", description = "the failed node, e.g. cluster1/gw-1",
            converter = NodeReference.Converter.class)
    private NodeReference node;

    @Override
    public Integer call() throws TopologyException {
        ClusterSet set = topology.load();
        try {
            UpLab lab = UpLab.of(topology.file(), set, new LabStateFile(), "heal");
            new LabFailure(ProcessCommandRunner.here()).heal(lab, node.toString(), line -> spec.commandLine().getErr().println(line));
            return ExitStatus.OK;
        } catch (LabRefusal refusal) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.getMessage());
            return ExitStatus.BAD_INPUT;
        }
    }
}
