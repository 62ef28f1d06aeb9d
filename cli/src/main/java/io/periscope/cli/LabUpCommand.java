package io.periscope.cli;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.supervisor.SupervisorLauncher;
import io.periscope.lab.up.LabUp;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code periscope lab up}: builds the lab, returns once every node's agent has converged, and leaves
 * the agents running in the lab's supervisor.
 */
@Command(name = "up",
        description = "As root, build the topology as network namespaces and start the agents; return once every node has converged.")
public final class LabUpCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Override
    public Integer call() throws TopologyException {
        ClusterSet set = topology.load();
        try {
            LabStateFile stateFile = new LabStateFile();
            new LabUp(ProcessCommandRunner.here(), stateFile, new ReconcilingAgents())
                    .run(topology.file(), set, line -> spec.commandLine().getErr().println(line), new SupervisorLauncher(stateFile)::start);
            return ExitStatus.OK;
        } catch (LabRefusal refusal) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.getMessage());
            return ExitStatus.BAD_INPUT;
        }
    }
}
