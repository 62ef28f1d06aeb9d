package io.periscope.cli;

import picocli.CommandLine.Command;

/** {@code periscope lab}: the topology made real as network namespaces on this machine; only groups its subcommands. */
@Command(name = "lab",
        description = "Build the topology as network namespaces on this machine (as root), apply policy edits, probe it with real packets, tear it down.",
        subcommands = {LabUpCommand.class, LabApplyCommand.class, LabProbeCommand.class, LabFailCommand.class, LabHealCommand.class,
                LabFailoverCommand.class, LabDownCommand.class})
public final class LabCommand {
}
