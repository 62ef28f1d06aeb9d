package io.periscope.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code periscope lab down}: removes what {@code lab up} created for this file, and nothing else. */
@Command(name = "down", description = "Remove what 'lab up' created for this topology, and nothing else.")
public final class LabDownCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Override
    public Integer call() {
        return UnavailableCommand.report(spec);
    }
}
