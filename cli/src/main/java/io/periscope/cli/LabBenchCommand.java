package io.periscope.cli;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.bench.BenchReport;
import io.periscope.lab.bench.BenchReportJson;
import io.periscope.lab.bench.BenchReportText;
import io.periscope.lab.bench.LabBench;
import io.periscope.lab.failover.UpLab;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.labsimulator.SimulatorBench;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code periscope lab bench}: parallel TCP flows (iperf3) through the running lab, measured per flow and per gateway, next to the simulator's spread. */
@Command(name = "bench",
        description = "As root, run N parallel TCP flows (iperf3) between the file's pods across clusters through the running lab, and report "
                + "aggregate and per-gateway throughput, per-flow rates, fairness and retransmissions, and which gateways each flow took, "
                + "next to the simulator's prediction for each flow's 5-tuple and the spread the hash policy makes likely.")
public final class LabBenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--flows", paramLabel = "N", defaultValue = "16", description = "TCP flows, spread round-robin over the pod pairs (default: ${DEFAULT-VALUE})")
    private int flows;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10", description = "how long the flows run (default: ${DEFAULT-VALUE})")
    private int seconds;

    @Option(names = "--json", description = "print the report as JSON (docs/cli.md)")
    private boolean json;

    @Override
    public Integer call() throws TopologyException {
        LabBench.Options options;
        try {
            options = new LabBench.Options(flows, seconds);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        ClusterSet set = topology.load();
        BenchReport report;
        try {
            UpLab lab = UpLab.of(topology.file(), set, new LabStateFile(), "bench");
            report = new LabBench(ProcessCommandRunner.here(), new SimulatorBench())
                    .run(lab, options, line -> spec.commandLine().getErr().println(line));
        } catch (LabRefusal refusal) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.getMessage());
            return ExitStatus.BAD_INPUT;
        }
        spec.commandLine().getOut().print(json ? BenchReportJson.render(report) + "\n" : BenchReportText.render(report));
        spec.commandLine().getOut().flush();
        return report.matchesPrediction() ? ExitStatus.OK : ExitStatus.EXPECTATION_FAILED;
    }
}
