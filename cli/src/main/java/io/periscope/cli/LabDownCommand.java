package io.periscope.cli;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.down.LabDown;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.util.concurrent.Callable;

/** {@code periscope lab down}: removes what {@code lab up} created for this file, and nothing else. */
@Command(name = "down", description = "Remove what 'lab up' created for this topology, and nothing else.")
public final class LabDownCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--force", description = "remove the lab of this topology's name even when another file of the same name built it")
    private boolean force;

    @Override
    public Integer call() throws TopologyException {
        try {
            LabDown down = new LabDown(ProcessCommandRunner.here(), new LabStateFile());
            if (!Files.exists(topology.file())) {
                // Moved or deleted since 'lab up': the lab's state still says which file built it.
                down.runWithoutFile(topology.file(), line -> spec.commandLine().getErr().println(line));
                return ExitStatus.OK;
            }
            ClusterSet set = topology.load();
            down.run(topology.file(), set, force, line -> spec.commandLine().getErr().println(line));
            return ExitStatus.OK;
        } catch (LabRefusal refusal) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.getMessage());
            return ExitStatus.BAD_INPUT;
        }
    }
}
