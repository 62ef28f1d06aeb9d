package io.periscope.simulator.whatif;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The moved connections of {@code trace --fail}, from the simulator's mid-stream traces: the gateway
 * that takes a connection over meets its next segment (an ACK) without an entry. With
 * {@code nf_conntrack_tcp_loose=1} it picks the connection up and its NAT rules translate it anew;
 * with 0 the ACK is INVALID there and goes on untranslated. Without Globalnet there is nothing to
 * translate and the connection survives either way; with Globalnet the translation it gets anew (or
 * the one it misses) is not the connection's, and the connection does not survive.
 */
class MovedConnectionsArePickedUpOrInvalidAtTheNewGateway {

    private static final String FAILED = "cluster1/gw-1";
    private static final HostId NEW_GATEWAY = HostId.node("cluster1", "gw-2");

    private static MovedConnections moved(String example, boolean looseOnTheNewGateway) throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", example));
        Flow flow = set.flow("client-to-nginx").orElseThrow();
        Simulator healthy = new Simulator(Planner.plan(set));
        ClusterSetPlan failed = Planner.planWithout(set, List.of(FAILED));
        if (!looseOnTheNewGateway) {
            failed = withSysctl(failed, NEW_GATEWAY, "net.netfilter.nf_conntrack_tcp_loose", "0");
        }
        Simulator down = new Simulator(failed);
        ResolvedFlow resolved = down.resolver().resolve(flow);
        FlowTrace before = healthy.trace(flow);
        return MovedConnections.of(before, flow.protocol(), down.traceMidStream(resolved), List.of(FAILED)).orElseThrow();
    }

    /** The plan with one host's sysctl set, as a node whose administrator changed it. */
    static ClusterSetPlan withSysctl(ClusterSetPlan plan, HostId host, String key, String value) {
        TreeMap<HostId, HostPlan> hosts = new TreeMap<>(plan.hosts());
        HostPlan h = hosts.get(host);
        DataplanePlan e = h.environment();
        Map<String, String> sysctls = new TreeMap<>(e.sysctls());
        sysctls.put(key, value);
        hosts.put(host, new HostPlan(h.id(), h.role(), h.node(), h.interfaces(), new DataplanePlan(e.netfilter(), e.ipsets(), e.vxlanDevices(),
                e.fdb(), e.neighbours(), e.nexthops(), e.nexthopGroups(), e.routes(), e.rules(), sysctls, e.wireGuardDevices(),
                e.ipsecConnections()), h.kubeProxy(), h.submariner()));
        return new ClusterSetPlan(plan.clusterSet(), plan.endpoints(), hosts, plan.segments(), plan.serviceRecords(), plan.allocations(), plan.ovn());
    }

    private static MovedConnections.NewHost newGateway(MovedConnections.MovedPath path) {
        return path.newHosts().stream().filter(h -> h.node().equals(NEW_GATEWAY.toString()) && h.direction().equals("forward"))
                .findFirst().orElseThrow(() -> new AssertionError("the new gateway is not among " + path.newHosts()));
    }

    @Test
    void withoutGlobalnetTheNewGatewayPicksTheAckUpAndTheConnectionSurvives() throws Exception {
        MovedConnections moved = moved("mag-vanilla.yaml", true);

        assertThat(moved.paths()).hasSize(2).allSatisfy(path -> {
            assertThat(path.gateways()).contains(NEW_GATEWAY.toString()).doesNotContain(FAILED);
            assertThat(newGateway(path).state()).isEqualTo(ConntrackLookup.State.NEW);
            assertThat(newGateway(path).nat()).isEmpty();
        });
        assertThat(moved.fates()).containsOnly(MovedConnections.Fate.SURVIVES);
    }

    @Test
    void withoutGlobalnetAnInvalidAckGoesOnUntranslatedAndTheConnectionStillSurvives() throws Exception {
        MovedConnections moved = moved("mag-vanilla.yaml", false);

        assertThat(moved.paths()).allSatisfy(path -> assertThat(newGateway(path).state()).isEqualTo(ConntrackLookup.State.INVALID));
        assertThat(moved.fates()).containsOnly(MovedConnections.Fate.SURVIVES);
        assertThat(moved.toText()).contains("cluster1/gw-2 (forward): no entry for it, and nf_conntrack_tcp_loose=0 picks none up: INVALID, not NATed");
    }

    @Test
    void withGlobalnetTheNewGatewaySnatsTheAckToItsOwnAddressAndTheServerResetsIt() throws Exception {
        MovedConnections moved = moved("mag-globalnet.yaml", true);

        assertThat(moved.paths()).allSatisfy(path -> {
            MovedConnections.NewHost gateway = newGateway(path);
            assertThat(gateway.state()).isEqualTo(ConntrackLookup.State.NEW);
            assertThat(gateway.nat()).singleElement().isInstanceOf(Step.Snat.class);
            // Its own slice of the cluster's global egress addresses, not the failed gateway's.
            assertThat(gateway.nat().getFirst().packet().src()).isNotIn(moved.established().stream().map(p -> p.src()).toList());
        });
        assertThat(moved.fates()).containsOnly(MovedConnections.Fate.RESET);
    }

    @Test
    void withGlobalnetAnInvalidAckLeavesWithThePodAddressAndTheConnectionIsLost() throws Exception {
        MovedConnections moved = moved("mag-globalnet.yaml", false);

        assertThat(moved.paths()).allSatisfy(path -> {
            assertThat(newGateway(path).state()).isEqualTo(ConntrackLookup.State.INVALID);
            assertThat(newGateway(path).nat()).isEmpty();
        });
        assertThat(moved.fates()).doesNotContain(MovedConnections.Fate.SURVIVES);
    }
}
