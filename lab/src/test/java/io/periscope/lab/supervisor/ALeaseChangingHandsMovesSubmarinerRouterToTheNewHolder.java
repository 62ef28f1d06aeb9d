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
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The supervisor's network plugin syncer brings Submariner's rows of an OVN-Kubernetes cluster's
 * northbound database to the plan of the current lease holders: when a standby takes the lease,
 * one pass rebinds {@code submariner_router} to its chassis, one update and nothing else;
 * a second pass finds nothing to do. (The lab test {@code FailedOvnGatewayMovesSubmarinerRouterToTheNextGateway}
 * checks the same on real OVN.)
 */
class ALeaseChangingHandsMovesSubmarinerRouterToTheNewHolder {

    @Test
    void theNewHoldersChassisGetsSubmarinerRouterAndNothingElseOfOvnKubernetesChanges() throws Exception {
        ClusterSet set = LeaseTopologies.ovnSingleActive();
        SupervisedPlan asBuilt = SupervisedPlan.of("r1", set, Map.of("east", "east-gw"));
        RecordingNorthbound northbound = new RecordingNorthbound(DesiredNorthbound.of(asBuilt.plan().ovn("east").orElseThrow()).plain());
        AtomicReference<SupervisedPlan> current = new AtomicReference<>(asBuilt);
        List<String> log = new ArrayList<>();
        NorthboundSyncLoop syncer = new NorthboundSyncLoop("east", new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER),
                current::get, Duration.ofSeconds(2), log::add);

        syncer.pass();
        assertThat(northbound.transactions()).as("up wrote the holder's plan already").allMatch(List::isEmpty);
        assertThat(chassisOfSubmarinerRouter(northbound)).contains("east-gw");

        current.set(SupervisedPlan.of("r1", set, Map.of("east", "east-gw2")));
        syncer.pass();

        assertThat(chassisOfSubmarinerRouter(northbound)).contains("east-gw2");
        // In seed 003's design only the router's chassis depends on the gateway: the reroute policies point at
        // submariner_router's own join address, and every node's ovn-k8s-sub0 has the same address and MAC.
        List<NbChange> moved = northbound.transactions().getLast();
        assertThat(moved).singleElement().isInstanceOfSatisfying(NbChange.Update.class,
                update -> assertThat(update.row()).isInstanceOfSatisfying(NbRow.RouterRow.class, r -> assertThat(r.name()).isEqualTo(Names.SUBMARINER_ROUTER)));
        assertThat(syncer.status().chassis()).isEqualTo("east-gw2");
        assertThat(syncer.status().lastError()).isEmpty();
        assertThat(log).singleElement().asString().contains("submariner_router on chassis east-gw2 (was east-gw)");

        int transactions = northbound.transactions().size();
        syncer.pass();
        assertThat(northbound.transactions().subList(transactions, northbound.transactions().size())).allMatch(List::isEmpty);
    }

    private static Optional<String> chassisOfSubmarinerRouter(RecordingNorthbound northbound) {
        return northbound.read().rows(NbRow.RouterRow.class).stream().filter(r -> r.name().equals(Names.SUBMARINER_ROUTER))
                .findFirst().orElseThrow().chassis();
    }
}
