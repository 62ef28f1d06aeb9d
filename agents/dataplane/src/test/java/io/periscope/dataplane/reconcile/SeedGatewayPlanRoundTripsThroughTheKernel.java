package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.dataplane.diff.CanonicalForm;
import io.periscope.dataplane.iptables.IptablesSaveParser;
import io.periscope.dataplane.iptables.SavedChain;
import io.periscope.dataplane.iptables.SavedRule;
import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.model.net.Ipv4Range;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.VxlanDevice;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.NexthopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Seed 004's gateway plan, programmed into a real namespace and read back. */
class SeedGatewayPlanRoundTripsThroughTheKernel {

    private TestNamespace namespace;
    private Reconciler reconciler;
    private final Ownership ownership = Ownership.submariner();

    @BeforeEach
    void createNamespace() {
        namespace = TestNamespace.create();
        SeedGateway.prepare(namespace);
        reconciler = new Reconciler(namespace.runner(), ownership);
    }

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    private DataplanePlan readBack(DataplanePlan plan) {
        return CanonicalForm.of(new DataplaneReader(namespace.runner()).read(ownership.scopeFor(plan)).plan());
    }

    @Test
    void aFreshGatewayReadsBackExactlyAsPlanned() {
        DataplanePlan plan = SeedGateway.plan();

        ReconcileResult result = reconciler.reconcile(plan);

        assertThat(result.changedAnything()).isTrue();
        assertThat(readBack(plan)).isEqualTo(CanonicalForm.of(plan));
    }

    @Test
    void reconcilingAgainFindsNothingToDoAndRunsOnlyReads() {
        DataplanePlan plan = SeedGateway.plan();
        reconciler.reconcile(plan);
        RecordingCommandRunner recorder = RecordingCommandRunner.wrapping(namespace.runner());

        ReconcileResult again = new Reconciler(recorder, ownership).reconcile(plan);

        assertThat(again.diff().changes()).isEmpty();
        assertThat(again.applied()).isEmpty();
        assertThat(recorder.commands()).allSatisfy(command -> assertThat(isRead(command)).as(command.toString()).isTrue());
    }

    @Test
    void iptablesSavePrintsEveryPlannedRuleAsIptablesSyntaxWritesIt() {
        DataplanePlan plan = SeedGateway.plan();
        reconciler.reconcile(plan);

        Map<Table, SavedTable> saved = IptablesSaveParser.parse(namespace.run("iptables-save"));

        for (NetfilterTable table : plan.netfilter()) {
            for (Chain chain : table.chains()) {
                SavedChain found = saved.get(table.table()).chain(chain.name()).orElseThrow();
                List<String> expected = chain.rules().stream().map(IptablesSyntax::rule).toList();
                assertThat(found.rules()).as(table.table() + " " + chain.name()).allMatch(SavedRule.Parsed.class::isInstance);
                assertThat(found.rules().stream().map(SavedRule::text).toList()).as(table.table() + " " + chain.name())
                        .startsWith(expected.toArray(String[]::new));
            }
        }
    }

    @Test
    void aChangedPlanIsReachedAndThenStable() {
        DataplanePlan plan = SeedGateway.plan();
        reconciler.reconcile(plan);
        DataplanePlan changed = changed(plan);

        ReconcileResult result = reconciler.reconcile(changed);

        assertThat(result.changedAnything()).isTrue();
        assertThat(readBack(changed)).isEqualTo(CanonicalForm.of(changed));
        assertThat(reconciler.reconcile(changed).applied()).isEmpty();
    }

    @Test
    void anEmptyPlanRemovesEverythingPeriscopeProgrammed() {
        DataplanePlan plan = SeedGateway.plan();
        reconciler.reconcile(plan);

        reconciler.reconcile(DataplanePlan.EMPTY);

        DataplanePlan left = CanonicalForm.of(new DataplaneReader(namespace.runner()).read(ownership.scopeFor(plan)).plan());
        // Sysctls stay as set: a plan that stops naming them stops managing them.
        assertThat(new DataplanePlan(left.netfilter(), left.ipsets(), left.vxlanDevices(), left.fdb(), left.neighbours(),
                left.nexthops(), left.nexthopGroups(), left.routes(), left.rules(), Map.of())).isEqualTo(DataplanePlan.EMPTY);
        assertThat(namespace.run("ip", "-o", "link", "show", "type", "vxlan")).isEmpty();
    }

    /**
     * The gateway after a change of its peers: a new SNAT range, a dropped Globalnet chain, a
     * resilient group with more buckets and a vxlan-tunnel on another port (both rebuilt), one
     * ipset fewer, another sysctl value.
     */
    static DataplanePlan changed(DataplanePlan plan) {
        List<NetfilterTable> netfilter = new ArrayList<>();
        for (NetfilterTable table : plan.netfilter()) {
            List<Chain> chains = new ArrayList<>();
            for (Chain chain : table.chains()) {
                switch (chain.name()) {
                    case "SM-GN-EGRESS-NS" -> {
                    }
                    case "SUBMARINER-GN-EGRESS" -> chains.add(new Chain(chain.name(),
                            chain.rules().stream().filter(r -> !r.equals(Rule.of(Target.jump("SM-GN-EGRESS-NS")))).toList()));
                    case "SM-GN-EGRESS-CLUSTER" -> chains.add(new Chain(chain.name(), chain.rules().stream()
                            .map(r -> new Rule(r.matches(), new Target.Snat(Ipv4Range.parse("242.254.1.9-242.254.1.16")), r.comment()))
                            .toList()));
                    case "SM-GN-EGRESS-PODS" -> chains.add(Chain.empty(chain.name()));
                    default -> chains.add(chain);
                }
            }
            netfilter.add(new NetfilterTable(table.table(), chains));
        }
        List<NexthopGroup> groups = plan.nexthopGroups().stream()
                .map(g -> g.resilient() ? new NexthopGroup(g.id(), g.members(), true, 128) : g).toList();
        List<VxlanDevice> devices = plan.vxlanDevices().stream()
                .map(d -> d.name().equals("vxlan-tunnel")
                        ? new VxlanDevice(d.name(), d.vni(), 4501, d.local(), d.underlay(), d.mtu(), d.address(), d.network(), d.learning())
                        : new VxlanDevice(d.name(), d.vni(), d.port(), d.local(), d.underlay(), 1400, d.address(), d.network(), d.learning()))
                .toList();
        List<IpSet> ipsets = plan.ipsets().stream().filter(s -> !s.name().equals(SeedGateway.EGRESS_IPSET)).toList();
        Map<String, String> sysctls = new HashMap<>(plan.sysctls());
        sysctls.put("net.ipv4.conf.vx-submariner.rp_filter", "0");
        return new DataplanePlan(netfilter, ipsets, devices, plan.fdb(), plan.neighbours(), plan.nexthops(), groups,
                plan.routes(), plan.rules(), sysctls);
    }

    static boolean isRead(Command command) {
        return DataplaneReader.READS.contains(command) || command.argv().subList(0, 2).equals(List.of("sysctl", "-e"));
    }
}
