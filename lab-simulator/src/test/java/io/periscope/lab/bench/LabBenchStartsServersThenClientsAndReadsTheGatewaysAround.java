package io.periscope.lab.bench;

import io.periscope.lab.Examples;
import io.periscope.lab.LabRefusal;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.NodeFailure;
import io.periscope.labsimulator.SimulatorBench;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code lab bench}'s sequence, without root, against a runner that answers with what the real
 * programs printed in a run on mag-globalnet's lab: the connection entries an earlier run left with
 * the bench's tuples deleted on the gateways, the gateways' deletion events listened to, the servers
 * started and listening before the WAN counters are read and the clients start, the counters and the
 * connection tables read after the clients ended; and what it refuses before starting anything.
 */
class LabBenchStartsServersThenClientsAndReadsTheGatewaysAround {

    @TempDir
    Path directory;

    private UpLab lab(List<NodeFailure> failures) {
        ClusterSet set = LabCables.of(Examples.load(Examples.MAG_GLOBALNET)).set();
        ClusterSetPlan plan = Planner.plan(set);
        LabLayout layout = LabLayout.of(plan);
        LabState state = new LabState(set.name(), "mag-globalnet.yaml", layout.names().hash(), layout.namespaces(), LabState.CONVERGED,
                List.of(), "", null, failures);
        return new UpLab(Path.of("mag-globalnet.yaml"), set, plan, layout, state, new LabStateFile(directory));
    }

    /** The real programs' output, by what is asked and of which gateway. */
    private static RecordingCommandRunner samples(UpLab lab) {
        Map<String, String> gatewayOf = new HashMap<>();
        for (HostNamespace host : lab.layout().nodes()) {
            gatewayOf.put(host.namespace(), host.host().toString());
        }
        AtomicInteger wanReads = new AtomicInteger();
        return new RecordingCommandRunner(invocation -> {
            List<String> argv = invocation.argv();
            String namespace = argv.get(3);
            List<String> program = argv.subList(4, argv.size());
            return switch (program.getFirst()) {
                case "conntrack" -> switch (program.get(1)) {
                    case "-L" -> new CommandResult(0, BenchSamples.conntrack(gatewayOf.get(namespace)), "");
                    case "-E" -> new CommandResult(137, "", "");
                    default -> new CommandResult(0, "", "conntrack v1.4.7 (conntrack-tools): 1 flow entries have been deleted.");
                };
                case "ip" -> new CommandResult(0, BenchSamples.wan(wanReads.getAndIncrement() < 4 ? "before" : "after", gatewayOf.get(namespace)), "");
                case "sysctl" -> new CommandResult(0, program.get(1).equals("-n") ? "0\n" : "", "");
                case "ss" -> new CommandResult(0, "LISTEN 0      4096   0.0.0.0:80 0.0.0.0:*\n", "");
                case "iperf3" -> program.contains("-c") ? new CommandResult(0, BenchSamples.read("iperf3-client-8-streams.json"), "")
                        : new CommandResult(0, "", "");
                default -> throw new AssertionError("the bench ran " + argv);
            };
        });
    }

    private static String program(Command invocation) {
        List<String> argv = invocation.argv();
        return String.join(" ", argv.subList(4, Math.min(argv.size(), 6)));
    }

    @Test
    void deletesLeftoverEntriesStartsServersThenClientsAndReadsAround() {
        UpLab lab = lab(List.of());
        RecordingCommandRunner runner = samples(lab);
        List<String> progress = new ArrayList<>();

        BenchReport report = new LabBench(runner, new SimulatorBench()).run(lab, new LabBench.Options(8, 3), progress::add);

        List<String> order = runner.commands().stream().map(LabBenchStartsServersThenClientsAndReadsTheGatewaysAround::program).toList();
        int firstDelete = order.indexOf("conntrack -D");
        int lastDelete = order.lastIndexOf("conntrack -D");
        int firstListener = order.indexOf("conntrack -E");
        int server = order.indexOf("iperf3 -4");
        int listening = order.indexOf("ss -H");
        int firstWan = order.indexOf("ip -j");
        int client = order.lastIndexOf("iperf3 -4");
        int lastWan = order.lastIndexOf("ip -j");
        int lastTable = order.lastIndexOf("conntrack -L");
        List<String> accounting = runner.commands().stream().map(Command::argv).filter(a -> a.get(4).equals("sysctl") && a.contains("-w"))
                .map(a -> a.getLast()).toList();
        // Accounting on in the 4 gateways before anything runs, set back to their 0 once the tables are read.
        assertThat(accounting).containsExactly("net.netfilter.nf_conntrack_acct=1", "net.netfilter.nf_conntrack_acct=1",
                "net.netfilter.nf_conntrack_acct=1", "net.netfilter.nf_conntrack_acct=1", "net.netfilter.nf_conntrack_acct=0",
                "net.netfilter.nf_conntrack_acct=0", "net.netfilter.nf_conntrack_acct=0", "net.netfilter.nf_conntrack_acct=0");
        assertThat(order.indexOf("sysctl -q")).isLessThan(firstDelete);
        assertThat(order.lastIndexOf("sysctl -q")).isGreaterThan(lastTable);
        assertThat(firstDelete).isPositive().isLessThan(server);
        // The deletion listeners start after the leftovers went (their deletions are not this run's), one per gateway, before the servers.
        assertThat(firstListener).isGreaterThan(lastDelete).isLessThan(server);
        assertThat(order.stream().filter("conntrack -E"::equals)).hasSize(4);
        assertThat(server).isLessThan(listening);
        assertThat(listening).isLessThan(firstWan);
        assertThat(firstWan).isLessThan(client);
        assertThat(client).isLessThan(lastWan);
        assertThat(lastWan).isLessThan(lastTable);
        // Every entry of the sample with one of the bench's tuples goes: 4 on each local gateway, 3 and 5 on the remote ones (not the control connection's).
        assertThat(order.stream().filter("conntrack -D"::equals)).hasSize(16);
        assertThat(runner.commands().get(client).argv().subList(4, runner.commands().get(client).argv().size())).containsExactly("iperf3", "-4",
                "-c", report.pairs().getFirst().destination().toString(), "-p", "80", "-P", "8", "--cport", "21000", "-t", "3", "-J",
                "--connect-timeout", "3000", "-B", "10.0.128.4");
        assertThat(runner.commands().get(server).argv().subList(4, runner.commands().get(server).argv().size())).containsExactly("iperf3", "-4",
                "-s", "-1", "-p", "80", "--idle-timeout", "33");
        assertThat(progress).anyMatch(l -> l.startsWith("bench: deleted 16 connection entries"));

        assertThat(report.streams()).hasSize(8).allSatisfy(s -> {
            assertThat(s.bytes()).isPositive();
            assertThat(s.measured().local()).hasSize(1);
            assertThat(s.measured().remote()).hasSize(1);
        });
        assertThat(report.totals().retransmits()).isEqualTo(200);
    }

    @Test
    void aFailedNodeIsRefusedBeforeAnythingRuns() {
        UpLab lab = lab(List.of(new NodeFailure("cluster1/gw-1", "blackhole", "ns", List.of(), "", false)));
        RecordingCommandRunner runner = samples(lab);

        assertThatThrownBy(() -> new LabBench(runner, new SimulatorBench()).run(lab, new LabBench.Options(8, 3), line -> { }))
                .isInstanceOf(LabRefusal.class).hasMessageContaining("cluster1/gw-1 (blackhole) is failed").hasMessageContaining("lab heal");
        assertThat(runner.commands()).isEmpty();
    }

    @Test
    void moreStreamsThanAPairsClientRunsAreRefusedBeforeAnythingRuns() {
        UpLab lab = lab(List.of());
        RecordingCommandRunner runner = samples(lab);

        assertThatThrownBy(() -> new LabBench(runner, new SimulatorBench()).run(lab, new LabBench.Options(200, 3), line -> { }))
                .isInstanceOf(LabRefusal.class).hasMessageContaining("at most 128 flows");
        assertThat(runner.commands()).isEmpty();
    }

    @Test
    void aServerThatEndsWithoutListeningStopsTheBenchWithWhatItPrinted() {
        UpLab lab = lab(List.of());
        RecordingCommandRunner runner = new RecordingCommandRunner(invocation -> invocation.argv().contains("-s")
                ? new CommandResult(1, "", "iperf3: error - unable to start listener for connections: Address already in use")
                : new CommandResult(0, "", ""));

        assertThatThrownBy(() -> new LabBench(runner, new SimulatorBench()).run(lab, new LabBench.Options(4, 3), line -> { }))
                .isInstanceOf(LabRefusal.class)
                .hasMessageContaining("the iperf3 server of flow client-to-nginx on port 80 of cluster2/default/nginx-7d4f")
                .hasMessageContaining("ended without listening: iperf3: error - unable to start listener for connections: Address already in use");
        assertThat(runner.commands()).noneMatch(i -> i.argv().contains("-c"));
    }
}
