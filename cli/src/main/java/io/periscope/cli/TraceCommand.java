package io.periscope.cli;

import io.periscope.model.load.TopologyException;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TraceText;
import io.periscope.simulator.whatif.FailoverReport;
import io.periscope.simulator.whatif.MovedConnections;
import io.periscope.visualizer.export.DotExport;
import io.periscope.visualizer.export.HtmlExport;
import io.periscope.visualizer.session.Scenario;
import io.periscope.visualizer.session.TraceDocument;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.ParameterException;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    @Option(names = "--html", paramLabel = "OUT.html",
            description = "write the topology and these traces as one self-contained web page (no server, no network) instead of text")
    private Path html;

    @Option(names = "--dot", paramLabel = "OUT.dot",
            description = "write the same picture as Graphviz DOT instead of text ('-' for standard output)")
    private Path dot;

    @Option(names = "--hash", description = "follow only the path the kernel's flow hash picks, not every multipath choice")
    private boolean hashChoice;

    @Override
    public Integer call() throws TopologyException {
        if (json && (html != null || dot != null)) {
            // Both replace the text: one would be dropped silently (and --dot - shares standard output).
            throw new ParameterException(spec.commandLine(), "--json cannot be combined with " + (html != null ? "--html" : "--dot")
                    + ": both replace the text output; give --json for the traces as JSON, or --html/--dot for the picture");
        }
        ClusterSet set = topology.load();
        List<Flow> flows = FlowSelection.select(spec.commandLine(), set,
                flowChoice == null ? null : flowChoice.flowName,
                flowChoice == null || flowChoice.adHoc == null ? null : flowChoice.adHoc.from,
                flowChoice == null || flowChoice.adHoc == null ? null : flowChoice.adHoc.to,
                flowChoice == null || flowChoice.adHoc == null ? Protocol.TCP : flowChoice.adHoc.protocol);
        if (flowChoice != null && flowChoice.adHoc != null && flowChoice.adHoc.size != null) {
            flows = List.of(sized(flows.getFirst(), flowChoice.adHoc.size));
        }
        Simulation simulation = Simulation.of(spec.commandLine(), set, failedNodes, hashChoice);
        List<FlowTrace> traces = simulation.trace(flows);
        PrintWriter out = spec.commandLine().getOut();
        if (html != null || dot != null) {
            writePictures(set, simulation, flows, traces, out);
            return ExitStatus.OK;
        }
        if (failedNodes.isEmpty()) {
            if (json) {
                out.println(TraceJson.render(traces));
            } else {
                out.print(TraceText.render(traces));
            }
        } else {
            printFailover(simulation, flows, traces, out);
        }
        out.flush();
        return ExitStatus.OK;
    }

    /**
     * {@code --fail}: the traces with the nodes failed, then what the failure does to each flow (the
     * what-if report: its gateways before and after, whether it keeps them, moves or breaks), the
     * gateways' new health-check addresses, and the TCP connections that move. In JSON, the version 1
     * document with {@code failed}, {@code failover} and each moving flow's {@code movedConnections}.
     */
    private void printFailover(Simulation simulation, List<Flow> flows, List<FlowTrace> traces, PrintWriter out) {
        Simulation healthy = simulation.withoutFailures();
        List<FlowTrace> before = healthy.trace(flows);
        FailoverReport report = FailoverReport.compare(before, traces);
        List<Optional<MovedConnections>> moved = movedConnections(simulation, flows, before);
        if (json) {
            ObjectNode document = TraceJson.document(traces);
            var failed = document.putArray("failed");
            failedNodes.forEach(node -> failed.add(node.toString()));
            document.set("failover", report.toJson());
            for (int i = 0; i < moved.size(); i++) {
                int index = i;
                moved.get(i).ifPresent(m -> ((ObjectNode) document.get("flows").get(index)).set("movedConnections", m.toJson()));
            }
            out.println(document.toPrettyString());
            return;
        }
        out.println("with " + failedNodes.stream().map(Object::toString).collect(java.util.stream.Collectors.joining(", ")) + " failed\n");
        out.print(TraceText.render(traces));
        out.println();
        out.print(report.toText());
        HealthCheckIpChanges healthChecks = HealthCheckIpChanges.of(healthy.simulator().plan(), simulation.simulator().plan());
        if (!healthChecks.isEmpty()) {
            out.println();
            out.print(healthChecks.toText());
        }
        List<MovedConnections> any = moved.stream().flatMap(Optional::stream).toList();
        if (!any.isEmpty()) {
            out.println();
            out.println("moved TCP connections:");
            any.forEach(m -> out.print(m.toText()));
        }
    }

    /**
     * Per flow, its TCP connections that were established through a failed node: their next segment
     * traced through the survivors, whose conntrack picks it up (or not) mid-stream.
     */
    private static List<Optional<MovedConnections>> movedConnections(Simulation simulation, List<Flow> flows, List<FlowTrace> healthy) {
        List<String> failed = simulation.failed().stream().map(NodeReference::toString).toList();
        List<Optional<MovedConnections>> moved = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            Flow flow = flows.get(i);
            FlowTrace before = healthy.get(i);
            moved.add(simulation.traceMidStream(flow).flatMap(midStream -> MovedConnections.of(before, flow.protocol(), midStream, failed)));
        }
        return moved;
    }

    /** {@code --html} and {@code --dot}: the visualizer's document of these traces, drawn into files. */
    private void writePictures(ClusterSet set, Simulation simulation, List<Flow> flows, List<FlowTrace> traces, PrintWriter out) {
        Scenario scenario = new Scenario(set, failedNodes.stream().map(NodeReference::toString).sorted().toList(),
                simulation.simulator().plan(), simulation.simulator());
        List<Scenario.Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            outcomes.add(new Scenario.Traced(flows.get(i), traces.get(i)));
        }
        ObjectNode document = TraceDocument.of(scenario, outcomes);
        if (html != null) {
            write(html, HtmlExport.render(document), out);
        }
        if (dot != null) {
            if (dot.toString().equals("-")) {
                out.print(DotExport.render(document));
            } else {
                write(dot, DotExport.render(document), out);
            }
        }
    }

    private void write(Path file, String text, PrintWriter out) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), file + ": cannot be written (" + e.getMessage()
                    + "); name a file in a directory that exists and is writable");
        }
        out.println("wrote " + file);
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

        @Option(names = "--size", paramLabel = "BYTES",
                description = "send one IP packet this long (headers included) with Don't Fragment set, as ping -M do -s does: "
                        + "where it meets a smaller MTU shows (udp and icmp)")
        Integer size;
    }

    /** The ad-hoc flow with a size, under the file's rules for {@code flows[].size}. */
    private Flow sized(Flow flow, int size) {
        if (size < Flow.MIN_SIZE || size > Flow.MAX_SIZE) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--size " + size + ": an IP packet is "
                    + Flow.MIN_SIZE + " to " + Flow.MAX_SIZE + " bytes long, headers included; give one in that range, e.g. 1400");
        }
        if (flow.protocol() == Protocol.TCP) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--size applies to --protocol udp or icmp: TCP's "
                    + "segments are as large as the MSS its handshake agrees (which the MSS clamp lowers), not a size the flow chooses");
        }
        return new Flow(flow.name(), flow.from(), flow.to(), flow.protocol(), flow.expect(), java.util.OptionalInt.of(size));
    }

    static final class ProtocolConverter implements ITypeConverter<Protocol> {
        @Override
        public Protocol convert(String value) {
            return Protocol.parseFlow(value).orElseThrow(() -> new TypeConversionException("'" + value + "' is not tcp, udp or icmp"));
        }
    }
}
