package io.periscope.cli;

import picocli.CommandLine.Command;

/** {@code periscope lab}: the topology made real as network namespaces on this machine; only groups its subcommands. */
@Command(name = "lab",
        description = "Build the topology as network namespaces on this machine (as root), apply policy edits, probe it with real packets,"
                + " measure failovers and throughput, tear it down.",
        subcommands = {LabUpCommand.class, LabApplyCommand.class, LabProbeCommand.class, LabFailCommand.class, LabHealCommand.class,
                LabFailoverCommand.class, LabBenchCommand.class, LabDownCommand.class})
public final class LabCommand {
}
