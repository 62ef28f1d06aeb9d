package io.periscope.lab.supervisor;

import io.periscope.dataplane.ovn.DesiredNorthbound;
import io.periscope.dataplane.ovn.NbChange;
import io.periscope.dataplane.ovn.NbRow;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.dataplane.ovn.NorthboundScope;
import io.periscope.dataplane.ovn.RecordingNorthbound;
import io.periscope.lab.lease.LeaseTopologies;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.Names;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under upstream's design ({@code behaviour: upstream}) the supervisor's syncer stands for the route agent's
 * gateway route controller: when the standby takes east's lease, one pass moves Submariner's reroute policy
 * and its marked static route on {@code ovn_cluster_router} from east-gw's {@code ovn-k8s-mp0} (10.244.0.1)
 * to east-gw2's (10.244.2.1), and changes nothing of OVN-Kubernetes' rows, whose routes on the same router
 * carry no mark.
 */
class ALeaseChangingHandsReroutesUpstreamsClusterRouterToTheNewHolder {

    @Test
    void theReroutePolicyAndTheMarkedRouteMoveToTheNewHoldersManagementPort() throws Exception {
        ClusterSet set = LeaseTopologies.ovnSingleActiveUpstream();
        SupervisedPlan asBuilt = SupervisedPlan.of("r1", set, Map.of("east", "east-gw"));
        assertThat(asBuilt.plan().ovn("east").orElseThrow().router(Names.SUBMARINER_ROUTER)).as("upstream's design has no submariner_router").isEmpty();
        RecordingNorthbound northbound = new RecordingNorthbound(DesiredNorthbound.of(asBuilt.plan().ovn("east").orElseThrow()).plain());
        List<NbRow> ovnKubernetes = northbound.read().plain().stream().filter(NorthboundScope.OVN_KUBERNETES::owns).toList();
        AtomicReference<SupervisedPlan> current = new AtomicReference<>(asBuilt);
        List<String> log = new ArrayList<>();
        NorthboundSyncLoop syncer = new NorthboundSyncLoop("east", new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER),
                current::get, Duration.ofSeconds(2), log::add);

        syncer.pass();
        assertThat(northbound.transactions()).as("up wrote the holder's plan already").allMatch(List::isEmpty);
        assertThat(submarinersRoutes(northbound)).extracting(NbRow.RouteRow::nexthop).containsOnly("10.244.0.1").isNotEmpty();

        current.set(SupervisedPlan.of("r1", set, Map.of("east", "east-gw2")));
        syncer.pass();

        List<NbChange> moved = northbound.transactions().getLast();
        assertThat(moved).isNotEmpty().allSatisfy(change -> assertThat(change.row()).satisfiesAnyOf(
                row -> assertThat(row).isInstanceOfSatisfying(NbRow.PolicyRow.class, p -> assertThat(p.priority()).isEqualTo(Names.OVN_REROUTE_PRIORITY)),
                row -> assertThat(row).isInstanceOfSatisfying(NbRow.RouteRow.class, r -> assertThat(r.submariner()).isTrue())));
        assertThat(northbound.read().rows(NbRow.PolicyRow.class)).filteredOn(p -> p.priority() == Names.OVN_REROUTE_PRIORITY)
                .isNotEmpty().allSatisfy(p -> assertThat(p.nexthops()).containsExactly("10.244.2.1"));
        assertThat(submarinersRoutes(northbound)).isNotEmpty().allSatisfy(r -> {
            assertThat(r.router()).isEqualTo(Names.OVN_CLUSTER_ROUTER);
            assertThat(r.nexthop()).isEqualTo("10.244.2.1");
        });
        assertThat(northbound.read().plain().stream().filter(NorthboundScope.OVN_KUBERNETES::owns).toList())
                .as("OVN-Kubernetes' rows, its routes on ovn_cluster_router among them").containsExactlyInAnyOrderElementsOf(ovnKubernetes);
        assertThat(log).singleElement().asString().endsWith("ovn_cluster_router reroutes to 10.244.2.1");
        assertThat(syncer.status().chassis()).isEqualTo("none");

        int transactions = northbound.transactions().size();
        syncer.pass();
        assertThat(northbound.transactions().subList(transactions, northbound.transactions().size())).allMatch(List::isEmpty);
    }

    private static List<NbRow.RouteRow> submarinersRoutes(RecordingNorthbound northbound) {
        return northbound.read().rows(NbRow.RouteRow.class).stream().filter(NbRow.RouteRow::submariner).toList();
    }
}
