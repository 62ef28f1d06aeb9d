package io.periscope.cli;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.apply.LabApply;
import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code periscope lab apply}: the running lab of a file takes the edited file in place (policies, links, exports, GlobalEgressIPs),
 * or refuses naming what would need {@code lab down} + {@code lab up}.
 */
@Command(name = "apply",
        description = {"As root, have the running lab built from this file take its edited policies in place (connectivityPolicies,"
                + " connectionPolicies between VXLAN-like cables, links, a cluster's exports and globalEgressIPs); the agents delete"
                + " what the edit dropped; return once every node has converged.",
                "Changes to clusters, hosts, addresses, Globalnet or WireGuard devices are refused: they need 'lab down' and 'lab up'."})
public final class LabApplyCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Override
    public Integer call() throws TopologyException {
        ClusterSet set = topology.load();
        try {
            new LabApply(new LabStateFile()).run(topology.file(), set, line -> spec.commandLine().getErr().println(line));
            return ExitStatus.OK;
        } catch (LabRefusal refusal) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.getMessage());
            return ExitStatus.BAD_INPUT;
        }
    }
}
