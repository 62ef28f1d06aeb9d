package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.dataplane.diff.CanonicalForm;
import io.periscope.dataplane.watch.NetlinkKernelWatch;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a real namespace, a reconciler with a {@link NetlinkKernelWatch}: after its own reconcile it
 * adds one GlobalIngressIP without fetching any table or route (one {@code -A} line), yet whatever
 * someone else changes in between (a rule, a route) is seen, put back and left alone as before, and
 * its picture of the node always equals a fresh read.
 */
class WatchedReconcileReadsAgainOnlyWhatChanged {

    private static final String INGRESS = "SUBMARINER-GN-INGRESS";

    private TestNamespace namespace;
    private NetlinkKernelWatch watch;
    private RecordingCommandRunner runner;
    private Reconciler reconciler;

    @BeforeEach
    void createNamespace() {
        namespace = TestNamespace.create();
        SeedGateway.prepare(namespace);
        watch = NetlinkKernelWatch.openIn(namespace.name());
        runner = RecordingCommandRunner.wrapping(namespace.runner());
        reconciler = new Reconciler(runner, Ownership.submariner(), watch);
    }

    @AfterEach
    void deleteNamespace() {
        if (watch != null) {
            watch.close();
        }
        if (namespace != null) {
            namespace.close();
        }
    }

    private static Rule ingress(int index) {
        return Rule.of(new Target.Dnat(Ipv4Address.parse("10.128." + index / 256 + "." + index % 256), OptionalInt.empty()),
                new Match.Destination(Ipv4Prefix.parse("243.0." + index / 256 + "." + index % 256 + "/32")));
    }

    /** The seed gateway's plan with {@code count} GlobalIngressIPs in its ingress chain. */
    private static DataplanePlan gatewayWith(int count) {
        DataplanePlan seed = SeedGateway.plan();
        List<NetfilterTable> tables = new ArrayList<>();
        for (NetfilterTable table : seed.netfilter()) {
            tables.add(table.table() != Table.NAT ? table : new NetfilterTable(Table.NAT, table.chains().stream()
                    .map(chain -> chain.name().equals(INGRESS)
                            ? new Chain(INGRESS, IntStream.range(0, count).mapToObj(WatchedReconcileReadsAgainOnlyWhatChanged::ingress).toList())
                            : chain)
                    .toList()));
        }
        return new DataplanePlan(tables, seed.ipsets(), seed.vxlanDevices(), seed.fdb(), seed.neighbours(), seed.nexthops(),
                seed.nexthopGroups(), seed.routes(), seed.rules(), seed.sysctls());
    }

    private List<String> programs() {
        List<String> programs = runner.commands().stream().map(c -> c.argv().getFirst()).toList();
        runner.clear();
        return programs;
    }

    private void assertTheKernelHolds(DataplanePlan plan) {
        DataplanePlan read = new DataplaneReader(namespace.runner()).read(Ownership.submariner().scopeFor(plan)).plan();
        assertThat(CanonicalForm.of(read)).isEqualTo(CanonicalForm.of(plan));
    }

    @Test
    void oneMoreIngressRuleIsOneAppendWithoutReadingTablesOrRoutes() {
        reconciler.reconcile(gatewayWith(200));
        reconciler.reconcile(gatewayWith(200));    // the routes the first one added were announced: read once more
        runner.clear();

        ReconcileResult result = reconciler.reconcile(gatewayWith(201));

        assertThat(programs()).doesNotContain("iptables-save", "ip", "bridge").contains("ipset", "sysctl", "iptables-restore");
        assertThat(result.applied()).singleElement().extracting(Command::stdin).asString()
                .isEqualTo("*nat\n-A " + INGRESS + " -d 243.0.0.200/32 -j DNAT --to-destination 10.128.0.200\nCOMMIT\n");
        assertTheKernelHolds(gatewayWith(201));
        assertThat(reconciler.reconcile(gatewayWith(201)).applied()).isEmpty();
    }

    @Test
    void aRuleChangedByHandInBetweenIsSeenAndPutBackAroundForeignOnes() {
        reconciler.reconcile(gatewayWith(50));
        reconciler.reconcile(gatewayWith(50));
        namespace.run("iptables", "-t", "nat", "-D", INGRESS, "7");
        namespace.run("iptables", "-t", "nat", "-A", "PREROUTING", "-s", "10.9.0.0/16", "-j", "ACCEPT");
        runner.clear();

        reconciler.reconcile(gatewayWith(51));

        assertThat(programs()).contains("iptables-save");
        assertTheKernelHolds(gatewayWith(51));
        assertThat(namespace.run("iptables-save", "-t", "nat")).contains("-A PREROUTING -s 10.9.0.0/16 -j ACCEPT");
        assertThat(reconciler.reconcile(gatewayWith(51)).applied()).isEmpty();
    }

    @Test
    void aRouteDeletedByHandInBetweenIsSeenAndPutBack() {
        reconciler.reconcile(gatewayWith(5));
        reconciler.reconcile(gatewayWith(5));
        namespace.run("ip", "route", "del", "242.254.3.0/24", "table", "100");
        runner.clear();

        ReconcileResult result = reconciler.reconcile(gatewayWith(5));

        assertThat(programs()).contains("ip").doesNotContain("iptables-save");
        assertThat(result.applied()).singleElement().extracting(Command::stdin).asString().contains("242.254.3.0/24");
        assertTheKernelHolds(gatewayWith(5));
    }

    @Test
    void aSequenceOfChangesKeepsThePictureEqualToTheKernel() {
        int[] counts = {10, 40, 39, 39, 60, 0, 3, 3, 25};
        for (int count : counts) {
            reconciler.reconcile(gatewayWith(count));
            assertTheKernelHolds(gatewayWith(count));
            assertThat(reconciler.diff(gatewayWith(count)).changes()).as("after %d rules", count).isEmpty();
        }
    }
}
