package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.Captured;
import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.Route;
import io.periscope.plan.routing.RouteProtocol;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.periscope.dataplane.reconcile.SeedGateway.cidr;
import static io.periscope.dataplane.reconcile.SeedGateway.ip;
import static org.assertj.core.api.Assertions.assertThat;

/** The reconciler against a recorded node: the captured outputs of the hand-built seed 004 gateway. */
class ReconcilerRunsOnlyTheDifference {

    private final RecordingCommandRunner node = new RecordingCommandRunner();
    private final Ownership ownership = Ownership.submariner();

    /**
     * The capture without the rules someone added by hand inside Periscope's own chains (which
     * the model cannot express, so a reconcile refills those chains).
     */
    private static String cleanIptablesSave() {
        return Captured.read("iptables-save.txt").lines()
                .filter(l -> !(l.contains("--set-mss") || l.contains("--random-fully") || l.contains("REJECT")
                        || l.startsWith("-A SM-GN-EGRESS-PODS")))
                .map(l -> l + "\n").collect(Collectors.joining());
    }

    @BeforeEach
    void answerReadsWithCapturedOutputs() {
        node.answer(DataplaneReader.IPTABLES_SAVE.argv(), cleanIptablesSave())
                .answer(DataplaneReader.IPSET_SAVE.argv(), Captured.read("ipset-save.txt"))
                .answer(DataplaneReader.IP_RULES.argv(), Captured.read("ip-rule.json"))
                .answer(DataplaneReader.IP_ROUTES.argv(), Captured.read("ip-route.json"))
                .answer(DataplaneReader.IP_NEXTHOPS.argv(), Captured.read("ip-nexthop.json"))
                .answer(DataplaneReader.IP_VXLAN_LINKS.argv(), Captured.read("ip-vxlan-addr.json"))
                .answer(DataplaneReader.IP_NEIGHBOURS.argv(), Captured.read("ip-neigh.json"))
                .answer(DataplaneReader.BRIDGE_FDB.argv(), Captured.read("bridge-fdb.json"))
                .answer(List.of("sysctl", "-e"), Captured.read("sysctl.txt"));
    }

    @Test
    void foreignRulesInsidePeriscopesChainsAreRemovedByRefillingOnlyThoseChains() {
        DataplanePlan plan = nodeState();
        // The node as captured, with the hand-added rules inside Periscope's chains.
        RecordingCommandRunner dirty = new RecordingCommandRunner()
                .answer(DataplaneReader.IPTABLES_SAVE.argv(), Captured.read("iptables-save.txt"))
                .answer(c -> true, node::run);

        ReconcileResult result = new Reconciler(dirty, ownership).reconcile(plan);

        assertThat(result.diff().changes()).map(c -> ((ChainChange) c).table() + " " + ((ChainChange) c).name())
                .containsExactly("MANGLE SUBMARINER-PREROUTING", "NAT SM-GN-EGRESS-CLUSTER", "NAT SM-GN-EGRESS-PODS", "FILTER SUBMARINER-FORWARD");
        assertThat(result.applied()).hasSize(3);
        assertThat(result.applied().get(1)).isEqualTo(Command.of("iptables-restore", "--noflush").withStdin("""
                *nat
                :SM-GN-EGRESS-CLUSTER - [0:0]
                :SM-GN-EGRESS-PODS - [0:0]
                -A SM-GN-EGRESS-CLUSTER -s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8
                COMMIT
                """));
    }

    /** What the captured node holds of Periscope's, as a plan. */
    private DataplanePlan nodeState() {
        return new DataplaneReader(node).read(ownership.scopeFor(DataplanePlan.EMPTY)).plan();
    }

    private List<Command> writes() {
        return node.commands().stream().filter(c -> !SeedGatewayPlanRoundTripsThroughTheKernel.isRead(c)).toList();
    }

    @Test
    void aNodeAlreadyInThePlannedStateGetsNoCommands() {
        DataplanePlan plan = nodeState();
        node.clear();

        ReconcileResult result = new Reconciler(node, ownership).reconcile(plan);

        assertThat(result.diff().changes()).isEmpty();
        assertThat(writes()).isEmpty();
    }

    @Test
    void periscopeStateTheCapturedNodeHoldsIsReadButForeignStateIsNot() {
        DataplanePlan state = nodeState();

        assertThat(state.vxlanDevices()).extracting(d -> d.name()).containsExactly("vx-submariner", "vxlan-tunnel");
        assertThat(state.ipsets()).extracting(IpSet::name).containsExactly("SM-GN-PODS-1A2B3C4D", "SUBMARINER-LOCALIPS");
        assertThat(state.routes()).extracting(r -> r.destination().toString()).contains("100.2.0.0/16", "10.1.0.0/16")
                .doesNotContain("10.44.0.0/16", "172.18.0.0/16");
        assertThat(state.neighbours()).extracting(n -> n.device()).containsOnly("vxlan-tunnel");
        assertThat(state.netfilter()).flatExtracting(t -> t.chains()).extracting(c -> c.name())
                .doesNotContain("KUBE-SERVICES", "FOREIGN-CHAIN");
    }

    @Test
    void oneNewRouteAndOneDroppedSetGiveOneIpBatchThenOneIpsetDestroyAtTheEnd() {
        DataplanePlan state = nodeState();
        List<Route> routes = new ArrayList<>(state.routes());
        routes.add(Route.unicast(100, cidr("10.66.0.0/16"), List.of(Nexthop.via(ip("241.18.0.4"), "vxlan-tunnel")), RouteProtocol.STATIC));
        List<IpSet> ipsets = state.ipsets().stream().filter(s -> s.name().equals(SeedGateway.EGRESS_IPSET)).toList();
        DataplanePlan desired = new DataplanePlan(state.netfilter(), ipsets, state.vxlanDevices(), state.fdb(), state.neighbours(),
                state.nexthops(), state.nexthopGroups(), routes, state.rules(), state.sysctls());
        node.clear();

        new Reconciler(node, ownership).reconcile(desired);

        assertThat(writes()).containsExactly(
                Command.of("ip", "-batch", "-").withStdin("route replace 10.66.0.0/16 table 100 metric 0 proto static via 241.18.0.4 dev vxlan-tunnel\n"),
                Command.of("ipset", "restore").withStdin("destroy SUBMARINER-LOCALIPS\n"));
    }

    /**
     * The vxlan cable's routes are {@code proto boot}, as upstream's: one left in table 100 by a
     * remote cluster that is gone is the agents' to remove, while a foreign {@code proto boot}
     * route in main through the node's own device stays.
     */
    @Test
    void aBootRouteOfTheCableThatNoPlanNamesIsRemovedButForeignBootRoutesStay() {
        String stale = "{\"dst\": \"10.77.0.0/16\", \"gateway\": \"241.18.0.4\", \"dev\": \"vxlan-tunnel\", \"table\": \"100\", "
                + "\"prefsrc\": \"10.0.0.1\", \"metric\": 100, \"flags\": []},\n";
        RecordingCommandRunner withStaleRoute = new RecordingCommandRunner()
                .answer(DataplaneReader.IP_ROUTES.argv(), Captured.read("ip-route.json").replaceFirst("\\[", "[" + stale))
                .answer(c -> true, node::run);
        DataplanePlan state = new DataplaneReader(withStaleRoute).read(ownership.scopeFor(DataplanePlan.EMPTY)).plan();
        assertThat(state.routes()).extracting(r -> r.destination().toString()).contains("10.77.0.0/16").doesNotContain("10.44.0.0/16");
        List<Route> routes = state.routes().stream().filter(r -> !r.destination().toString().equals("10.77.0.0/16")).toList();
        DataplanePlan desired = new DataplanePlan(state.netfilter(), state.ipsets(), state.vxlanDevices(), state.fdb(), state.neighbours(),
                state.nexthops(), state.nexthopGroups(), routes, state.rules(), state.sysctls());
        withStaleRoute.clear();

        new Reconciler(withStaleRoute, ownership).reconcile(desired);

        assertThat(withStaleRoute.commands()).filteredOn(c -> !SeedGatewayPlanRoundTripsThroughTheKernel.isRead(c)).containsExactly(
                Command.of("ip", "-batch", "-").withStdin("route del 10.77.0.0/16 table 100 metric 100 proto boot\n"));
    }

    /**
     * Periscope once kept tunnel ports out of conntrack in raw SUBMARINER-RAW; upstream has no such
     * chain and neither do today's plans. A node upgraded from then still holds it: the chain is
     * Submariner's by its prefix, so the reconcile removes it with its jumps, and nothing else.
     */
    @Test
    void aChainTheAgentsNoLongerPlanIsRemovedWithItsJumpsOnUpgrade() {
        DataplanePlan state = nodeState();
        assertThat(state.table(Table.RAW)).isPresent();
        DataplanePlan desired = new DataplanePlan(state.netfilter().stream().filter(t -> t.table() != Table.RAW).toList(), state.ipsets(),
                state.vxlanDevices(), state.fdb(), state.neighbours(), state.nexthops(), state.nexthopGroups(), state.routes(), state.rules(),
                state.sysctls());
        node.clear();

        ReconcileResult result = new Reconciler(node, ownership).reconcile(desired);

        assertThat(result.diff().changes()).allMatch(DataplaneChange::isRemoval).map(c -> switch (c) {
            case ChainChange chain -> chain.table() + " " + chain.name();
            case BuiltinChainChange builtin -> builtin.table() + " " + builtin.chain();
            default -> c.toString();
        }).containsExactlyInAnyOrder("RAW PREROUTING", "RAW OUTPUT", "RAW SUBMARINER-RAW");
        assertThat(writes()).singleElement().satisfies(c -> assertThat(c.stdin()).contains("*raw", "-D PREROUTING -j SUBMARINER-RAW",
                "-D OUTPUT -j SUBMARINER-RAW", "-X SUBMARINER-RAW").doesNotContain("*filter", "*nat", "*mangle"));
    }
}
