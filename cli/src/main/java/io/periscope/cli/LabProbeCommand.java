package io.periscope.cli;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.probe.LabProbe;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.lab.probe.ProbeReportJson;
import io.periscope.lab.probe.ProbeReportText;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.Optional;
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
    public Integer call() throws TopologyException {
        ClusterSet set = topology.load();
        ProbeReport report;
        try {
            report = new LabProbe(ProcessCommandRunner.here(), new LabStateFile(), SimulatorFlows::new)
                    .run(topology.file(), set, Optional.ofNullable(flowName), line -> spec.commandLine().getErr().println(line));
        } catch (LabRefusal refusal) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.getMessage());
            return ExitStatus.BAD_INPUT;
        }
        spec.commandLine().getOut().print(json ? ProbeReportJson.render(report) + "\n" : ProbeReportText.render(report));
        spec.commandLine().getOut().flush();
        return report.matchesSimulation() ? ExitStatus.OK : ExitStatus.EXPECTATION_FAILED;
    }
}
