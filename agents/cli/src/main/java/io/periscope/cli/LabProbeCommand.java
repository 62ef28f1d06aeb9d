package io.periscope.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code periscope lab probe}: real packets through the lab, compared hop by hop with the simulator. */
@Command(name = "probe",
        description = "Send real packets for each flow in the lab, capture them on every interface they cross, "
                + "and compare the observed hops with the simulator's trace.")
public final class LabProbeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--flow", paramLabel = "NAME", description = "probe only the file's flow of this name")
    private String flowName;

    @Option(names = "--json", description = "print the observed hops as JSON, with matchesSimulation per flow")
    private boolean json;

    @Override
    public Integer call() {
        return UnavailableCommand.report(spec);
    }
}
