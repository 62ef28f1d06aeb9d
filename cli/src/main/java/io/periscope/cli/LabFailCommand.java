package io.periscope.cli;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailure;
import io.periscope.lab.failover.UpLab;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code periscope lab fail}: fails one node of a running lab, recording what it changes so that {@code heal} undoes exactly that. */
@Command(name = "fail",
        description = "As root, fail a node of the running lab: crash (agents stop, links lose carrier), blackhole (packets dropped, "
                + "links up) or agent-stop (only its agents stop). 'lab heal' undoes it.")
public final class LabFailCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Parameters(index = "1", paramLabel = "CLUSTER/NODE", description = "the node to fail, e.g. cluster1/gw-1",
            converter = NodeReference.Converter.class)
    private NodeReference node;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "crash",
            description = "crash, blackhole or agent-stop (default: ${DEFAULT-VALUE})")
    private String mode;

    @Override
    public Integer call() throws TopologyException {
        FailureMode failure;
        try {
            failure = FailureMode.parse(mode);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--mode: " + e.getMessage());
        }
        ClusterSet set = topology.load();
        try {
            UpLab lab = UpLab.of(topology.file(), set, new LabStateFile(), "fail");
            new LabFailure(ProcessCommandRunner.here()).fail(lab, node.toString(), failure, line -> spec.commandLine().getErr().println(line));
            return ExitStatus.OK;
        } catch (LabRefusal refusal) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.getMessage());
            return ExitStatus.BAD_INPUT;
        }
    }
}
