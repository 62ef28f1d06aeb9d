package io.periscope.cli;

import io.periscope.lab.LabRefusal;
import io.periscope.lab.failover.FailoverReport;
import io.periscope.lab.failover.FailoverReportJson;
import io.periscope.lab.failover.FailoverReportText;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailover;
import io.periscope.lab.failover.UpLab;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.labsimulator.SimulatorFailover;
import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code periscope lab failover}: real packet streams through the running lab while a node fails, measured and compared with the simulator. */
@Command(name = "failover",
        description = "As root, run UDP streams (and a few TCP connections) through the running lab, fail a node, optionally heal it, "
                + "and report per stream the packets lost, the loss window and the gateways before, during and after, "
                + "with the simulator's --fail prediction.")
public final class LabFailoverCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--fail", required = true, paramLabel = "CLUSTER/NODE", converter = NodeReference.Converter.class,
            description = "the node to fail, e.g. cluster1/gw-1")
    private NodeReference fail;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "crash", description = "crash, blackhole or agent-stop (default: ${DEFAULT-VALUE})")
    private String mode;

    @Option(names = "--flows", paramLabel = "N", defaultValue = "16", description = "UDP streams (default: ${DEFAULT-VALUE})")
    private int flows;

    @Option(names = "--rate", paramLabel = "PPS", defaultValue = "1000", description = "packets per second per stream (default: ${DEFAULT-VALUE})")
    private int rate;

    @Option(names = "--tcp", paramLabel = "N", defaultValue = "4", description = "long-lived TCP connections (default: ${DEFAULT-VALUE})")
    private int tcp;

    @Option(names = "--heal-after", paramLabel = "S", description = "heal the node this many seconds after failing it")
    private Double healAfter;

    @Option(names = "--json", description = "print the report as JSON (docs/cli.md)")
    private boolean json;

    @Override
    public Integer call() throws TopologyException {
        LabFailover.Options options;
        try {
            if (healAfter != null && (healAfter <= 0 || healAfter > 600)) {
                throw new IllegalArgumentException("--heal-after must be between 0 and 600 seconds, not " + healAfter);
            }
            options = new LabFailover.Options(fail.toString(), FailureMode.parse(mode), flows, rate, tcp,
                    Optional.ofNullable(healAfter).map(s -> Duration.ofMillis((long) (s * 1000))));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        ClusterSet set = topology.load();
        FailoverReport report;
        try {
            UpLab lab = UpLab.of(topology.file(), set, new LabStateFile(), "failover");
            report = new LabFailover(ProcessCommandRunner.here(), new SimulatorFailover())
                    .run(lab, options, line -> spec.commandLine().getErr().println(line));
        } catch (LabRefusal refusal) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + refusal.getMessage());
            return ExitStatus.BAD_INPUT;
        }
        spec.commandLine().getOut().print(json ? FailoverReportJson.render(report) + "\n" : FailoverReportText.render(report));
        spec.commandLine().getOut().flush();
        return ExitStatus.OK;
    }
}
