package io.periscope.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code periscope lab up}: builds the lab and returns once every node's agent has converged. */
@Command(name = "up",
        description = "As root, build the topology as network namespaces and start the agents; return once every node has converged.")
public final class LabUpCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Override
    public Integer call() {
        return UnavailableCommand.report(spec);
    }
}
