package io.periscope.cli;

import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TraceText;
import java.io.PrintWriter;

import io.periscope.model.topology.Protocol;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code periscope trace}: follows flows hop by hop through the simulated dataplane, forward and reply. */
@Command(name = "trace",
        description = "Trace the file's flows (or one of them, or an ad-hoc flow) step by step, forward and reply.")
public final class TraceCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    private FlowChoice flowChoice;

    @Option(names = "--json", description = "print the traces as JSON (docs/cli.md) instead of text")
    private boolean json;

    @Option(names = "--fail", paramLabel = "CLUSTER/NODE", converter = NodeReference.Converter.class,
            description = "trace as if this node had failed (repeatable), e.g. to see a gateway failover")
    private List<NodeReference> failedNodes = List.of();

    @Option(names = "--hash", description = "follow only the path the kernel's flow hash picks, not every multipath choice")
    private boolean hashChoice;

    @Override
    public Integer call() throws TopologyException {
        ClusterSet set = topology.load();
        List<Flow> flows = FlowSelection.select(spec.commandLine(), set,
                flowChoice == null ? null : flowChoice.flowName,
                flowChoice == null || flowChoice.adHoc == null ? null : flowChoice.adHoc.from,
                flowChoice == null || flowChoice.adHoc == null ? null : flowChoice.adHoc.to,
                flowChoice == null || flowChoice.adHoc == null ? Protocol.TCP : flowChoice.adHoc.protocol);
        Simulation simulation = Simulation.of(spec.commandLine(), set, failedNodes, hashChoice);
        List<FlowTrace> traces = simulation.trace(flows);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(TraceJson.render(traces));
        } else {
            if (!failedNodes.isEmpty()) {
                out.println("with " + failedNodes.stream().map(Object::toString).collect(java.util.stream.Collectors.joining(", "))
                        + " failed\n");
            }
            out.print(TraceText.render(traces));
            if (!failedNodes.isEmpty()) {
                out.println();
                out.print(FailoverReport.compare(simulation.withoutFailures().trace(flows), traces).toText());
            }
        }
        out.flush();
        return ExitStatus.OK;
    }

    /** Either a named flow of the file or an ad-hoc one, never both. */
    static final class FlowChoice {
        @Option(names = "--flow", paramLabel = "NAME", description = "trace only the file's flow of this name")
        String flowName;

        @ArgGroup(exclusive = false, multiplicity = "1")
        AdHocFlow adHoc;
    }

    static final class AdHocFlow {
        @Option(names = "--from", required = true, paramLabel = "X",
                description = "where an ad-hoc flow starts: CLUSTER/NAMESPACE/POD or CLUSTER/NODE")
        String from;

        @Option(names = "--to", required = true, paramLabel = "Y",
                description = "where it goes: NAME.NAMESPACE.svc.clusterset.local:PORT, CLUSTER/NAMESPACE/POD:PORT or IP:PORT")
        String to;

        @Option(names = "--protocol", paramLabel = "P", converter = ProtocolConverter.class, defaultValue = "tcp",
                description = "tcp, udp or icmp (default: ${DEFAULT-VALUE})")
        Protocol protocol;
    }

    static final class ProtocolConverter implements ITypeConverter<Protocol> {
        @Override
        public Protocol convert(String value) {
            return Protocol.parse(value).orElseThrow(() -> new TypeConversionException("'" + value + "' is not tcp, udp or icmp"));
        }
    }
}
