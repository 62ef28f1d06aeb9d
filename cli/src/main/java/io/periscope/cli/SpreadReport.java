package io.periscope.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.layout.SysctlSettings;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.LinkProperties;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.NameNotAnswered;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.spread.GatewaySpread;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code check --spread N}: for each flow of the file, how N connections from N source ports spread
 * over the gateways they leave and enter by ({@link GatewaySpread}), each node hashing with the seed
 * {@code lab up} gives it, so the prediction is what a fresh lab's kernels do with packets that
 * carry no socket hash of their own.
 */
record SpreadReport(int connections, List<FlowSpread> flows) {

    /** A flow's spread, or why it has none ({@code note}: ICMP has no ports, a name nobody answers). */
    record FlowSpread(String name, Protocol protocol, GatewaySpread.Spread spread, String note) {
    }

    static SpreadReport of(Simulator simulator, List<Flow> flows, int connections) {
        ClusterSetPlan plan = simulator.plan();
        Map<HostId, Integer> seeds = labSeeds(plan);
        List<Integer> ports = GatewaySpread.ephemeralPorts(connections);
        List<FlowSpread> spreads = new ArrayList<>();
        for (Flow flow : flows) {
            if (!flow.protocol().hasPorts()) {
                spreads.add(new FlowSpread(flow.name(), flow.protocol(), null, "icmp has no ports: every echo of a pod pair hashes alike"));
                continue;
            }
            ResolvedFlow resolved;
            try {
                resolved = simulator.resolver().resolve(flow);
            } catch (NameNotAnswered e) {
                spreads.add(new FlowSpread(flow.name(), flow.protocol(), null, "nothing is sent: " + e.answerMissing()));
                continue;
            } catch (FlowResolutionException e) {
                // Its source ran on a node --fail took away: check has said so already.
                spreads.add(new FlowSpread(flow.name(), flow.protocol(), null, "nothing is sent: " + e.getMessage()));
                continue;
            }
            spreads.add(new FlowSpread(flow.name(), flow.protocol(), GatewaySpread.of(plan, resolved, ports, seeds), null));
        }
        return new SpreadReport(connections, spreads);
    }

    /** The seed {@code lab up} gives each node: derived from its namespace's name, the same every run. */
    static Map<HostId, Integer> labSeeds(ClusterSetPlan plan) {
        return SysctlSettings.multipathSeeds(LabLayout.of(plan));
    }

    String toText() {
        StringBuilder text = new StringBuilder();
        text.append("spread (").append(connections).append(connections == 1 ? " connection" : " connections")
                .append(" per flow from source ports spread evenly over ").append(GatewaySpread.EPHEMERAL_LOW).append('-')
                .append(GatewaySpread.EPHEMERAL_HIGH).append("; each node hashes with the seed lab up gives it):\n");
        if (flows.isEmpty()) {
            text.append("  the file has no flows\n");
        }
        for (FlowSpread flow : flows) {
            text.append("  ").append(flow.name()).append(" (").append(flow.protocol().name().toLowerCase(Locale.ROOT));
            if (flow.spread() == null) {
                text.append("): ").append(flow.note()).append('\n');
                continue;
            }
            GatewaySpread.Spread spread = flow.spread();
            text.append(", hash policy ").append(spread.hashing().text()).append(")");
            if (spread.local().isEmpty()) {
                text.append(": crosses no gateway\n");
                continue;
            }
            text.append('\n');
            gateways(text, "leaves by", spread.local(), spread);
            gateways(text, "enters by", spread.remote(), spread);
            long without = spread.withoutGateway();
            if (without > 0) {
                text.append("    ").append(without).append(" of ").append(spread.connections()).append(" cross no gateway (not delivered across)\n");
            }
            spread.otherBottleneck().ifPresent(b -> text.append("    rest of the path: bottleneck ")
                    .append(LinkProperties.rateText(b.bitsPerSecond())).append(" at ").append(b.link()).append('\n'));
            text.append("    aggregate: ").append(spread.aggregate().isPresent()
                    ? "at most " + LinkProperties.rateText(spread.aggregate().getAsLong())
                    + " (the rates of the gateways that carry a connection, capped by the rest of the path)"
                    : "not limited by any shaped link").append('\n');
        }
        return text.toString();
    }

    private static void gateways(StringBuilder text, String label, List<GatewaySpread.GatewayShare> shares, GatewaySpread.Spread spread) {
        int width = shares.stream().mapToInt(s -> s.gateway().toString().length()).max().orElse(0);
        int countWidth = Integer.toString(spread.connections()).length();
        for (int i = 0; i < shares.size(); i++) {
            GatewaySpread.GatewayShare share = shares.get(i);
            text.append("    ").append(i == 0 ? label : " ".repeat(label.length())).append("  ")
                    .append(pad(share.gateway().toString(), width)).append("  ")
                    .append(pad(Integer.toString(share.connections()), countWidth)).append(" (").append(percent(share.share())).append(")")
                    .append("  expected ").append(percent(share.expectedShare()));
            if (share.samplingError() > 0) {
                text.append(" ± ").append(percent(share.samplingError()));
            }
            text.append("  rate ").append(share.rate().isPresent() ? LinkProperties.rateText(share.rate().getAsLong()) : "unshaped").append('\n');
        }
        if (spread.addressesOnly()) {
            text.append("    ").append(" ".repeat(label.length())).append("  (the policy hashes the addresses only: every connection of the pod pair takes one gateway)\n");
        }
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }

    private static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }

    /** The JSON: {@code connections}, {@code ports}, per flow its gateways each way. */
    record Json(int connections, String sourcePorts, List<FlowJson> flows) {
        static Json of(SpreadReport report) {
            return new Json(report.connections(), GatewaySpread.EPHEMERAL_LOW + "-" + GatewaySpread.EPHEMERAL_HIGH + " evenly",
                    report.flows().stream().map(FlowJson::of).toList());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record FlowJson(String name, String protocol, String note, String hashPolicy, Boolean addressesOnly, List<ShareJson> local,
                    List<ShareJson> remote, Long withoutGateway, BottleneckJson restOfPath, Long aggregateBitsPerSecond,
                    List<PortJson> ports) {
        static FlowJson of(FlowSpread flow) {
            String protocol = flow.protocol().name().toLowerCase(Locale.ROOT);
            GatewaySpread.Spread s = flow.spread();
            if (s == null) {
                return new FlowJson(flow.name(), protocol, flow.note(), null, null, null, null, null, null, null, null);
            }
            return new FlowJson(flow.name(), protocol, null, s.hashing().text(), s.addressesOnly(),
                    s.local().stream().map(ShareJson::of).toList(), s.remote().stream().map(ShareJson::of).toList(), s.withoutGateway(),
                    s.otherBottleneck().map(b -> new BottleneckJson(b.bitsPerSecond(), LinkProperties.rateText(b.bitsPerSecond()), b.link()))
                            .orElse(null),
                    s.aggregate().isPresent() ? s.aggregate().getAsLong() : null,
                    s.ports().stream().map(p -> new PortJson(p.sourcePort(), p.localGateway().map(HostId::toString).orElse(null),
                            p.remoteGateway().map(HostId::toString).orElse(null))).toList());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ShareJson(String gateway, int connections, double share, double expectedShare, double samplingError, Long rateBitsPerSecond) {
        static ShareJson of(GatewaySpread.GatewayShare s) {
            return new ShareJson(s.gateway().toString(), s.connections(), s.share(), s.expectedShare(), s.samplingError(),
                    s.rate().isPresent() ? s.rate().getAsLong() : null);
        }
    }

    record BottleneckJson(long bitsPerSecond, String rate, String link) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PortJson(int sourcePort, String local, String remote) {
    }
}
