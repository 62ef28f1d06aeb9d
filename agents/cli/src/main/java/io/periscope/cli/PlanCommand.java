package io.periscope.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code periscope plan}: what the agents would program on each node, in the kernel tools' own input formats. */
@Command(name = "plan",
        description = "Print what the agents would program on each node (or one): iptables-restore and ipset restore input, "
                + "routes, rules, nexthops, VXLAN devices and FDB entries.")
public final class PlanCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--node", paramLabel = "CLUSTER/NODE", converter = NodeReference.Converter.class,
            description = "print only this node's plan")
    private NodeReference node;

    @Option(names = "--json", description = "print the plans as JSON instead of text")
    private boolean json;

    @Override
    public Integer call() {
        return UnavailableCommand.report(spec);
    }
}
