package io.periscope.lab.lease;

import io.periscope.dataplane.election.LeaseRecord;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabLayout;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostPlan;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab plans a single-active cluster with its lease holder as the active gateway, and changes
 * nothing the lab built: the same namespaces and links, every pod's plan the same; only the nodes'
 * Submariner layers follow the holder.
 */
class LeaseHoldersPlanAsTheActiveGateway {

    @Test
    void onlySingleActiveClustersWithSeveralGatewaysElect() throws Exception {
        assertThat(LabLeases.electing(LeaseTopologies.singleActive())).extracting(c -> c.name()).containsExactly("cluster1");
    }

    @Test
    void theHolderBecomesTheActiveGatewayAndTheLabStaysAsBuilt() throws Exception {
        ClusterSet set = LeaseTopologies.singleActive();
        ClusterSetPlan asBuilt = Planner.plan(set);
        ClusterSet gw2Holds = LabLeases.withHolders(set, Map.of("cluster1", "gw-2"));
        ClusterSetPlan replanned = Planner.plan(gw2Holds);

        assertThat(gw2Holds.requireCluster("cluster1").activeGateways()).extracting(Node::name).containsExactly("gw-2");
        assertThat(gw2Holds.requireCluster("cluster1").nodes()).extracting(Node::name).containsExactly("gw-2", "gw-1", "worker-1");
        LabLayout before = LabLayout.of(asBuilt);
        LabLayout after = LabLayout.of(replanned);
        assertThat(after.namespaces()).isEqualTo(before.namespaces());
        assertThat(after.veths()).containsExactlyInAnyOrderElementsOf(before.veths());
        assertThat(role(after, "cluster1/gw-2")).isEqualTo(HostPlan.HostRole.GATEWAY);
        assertThat(role(before, "cluster1/gw-2")).isNotEqualTo(HostPlan.HostRole.GATEWAY);
        for (HostNamespace host : before.hosts()) {
            HostPlan replannedHost = after.requireHost(host.host()).plan();
            assertThat(replannedHost.interfaces()).as(host.host() + "'s interfaces").isEqualTo(host.plan().interfaces());
            // The same machine; the routes to the cluster's nodes come in node order, so compare them as a set.
            assertThat(replannedHost.environment().routes()).as(host.host() + "'s machine routes")
                    .containsExactlyInAnyOrderElementsOf(host.plan().environment().routes());
            assertThat(replannedHost.environment().netfilter()).isEqualTo(host.plan().environment().netfilter());
            assertThat(replannedHost.environment().sysctls()).isEqualTo(host.plan().environment().sysctls());
            assertThat(replannedHost.kubeProxy()).as(host.host() + "'s kube-proxy").isEqualTo(host.plan().kubeProxy());
            if (!host.isNode()) {
                assertThat(after.requireHost(host.host()).plan()).as(host.host() + " is a pod: its plan does not depend on the lease").isEqualTo(host.plan());
            }
        }
        assertThat(replanned.host(host(after, "cluster1/worker-1")).orElseThrow().submariner())
                .as("the worker routes through the new gateway").isNotEqualTo(asBuilt.host(host(before, "cluster1/worker-1")).orElseThrow().submariner());
    }

    @Test
    void holdersAreReadFromTheLeaseFilesAndAReleasedLeaseNamesNobody(@TempDir Path lab) throws Exception {
        ClusterSet set = LeaseTopologies.singleActive();
        assertThat(LabLeases.holders(lab, set)).isEmpty();
        LabLeaseStore store = LabLeaseStore.reader(LabLeases.file(lab, "cluster1"));
        Instant now = Instant.parse("2026-11-26T00:00:00Z");
        String created = store.write(Optional.empty(), new LeaseRecord("gw-2", now, now, Duration.ofSeconds(2), 0)).orElseThrow();
        assertThat(LabLeases.holders(lab, set)).containsExactly(Map.entry("cluster1", "gw-2"));

        store.write(Optional.of(created), new LeaseRecord("", now, now, Duration.ofSeconds(1), 0)).orElseThrow();
        assertThat(LabLeases.holders(lab, set)).isEmpty();
    }

    @Test
    void aStaleWriteToALeaseFileWritesNothingAndACutOffNodeReachesNothing(@TempDir Path lab) {
        Path file = LabLeases.file(lab, "cluster1");
        LabLeaseStore gw1 = new LabLeaseStore(file, () -> true, "cluster1/gw-1");
        boolean[] failed = {false};
        LabLeaseStore gw2 = new LabLeaseStore(file, () -> !failed[0], "cluster1/gw-2");
        Instant now = Instant.parse("2026-11-26T00:00:00Z");
        String v1 = gw1.write(Optional.empty(), new LeaseRecord("gw-1", now, now, Duration.ofSeconds(2), 0)).orElseThrow();
        assertThat(gw2.write(Optional.empty(), new LeaseRecord("gw-2", now, now, Duration.ofSeconds(2), 0))).isEmpty();
        String v2 = gw1.write(Optional.of(v1), new LeaseRecord("gw-1", now, now.plusSeconds(1), Duration.ofSeconds(2), 0)).orElseThrow();
        assertThat(gw2.write(Optional.of(v1), new LeaseRecord("gw-2", now, now, Duration.ofSeconds(2), 1))).isEmpty();
        assertThat(gw2.read().orElseThrow().version()).isEqualTo(v2);

        failed[0] = true;
        org.assertj.core.api.Assertions.assertThatThrownBy(gw2::read).hasMessageContaining("cluster1/gw-2 cannot reach the lease store");
    }

    private static HostPlan.HostRole role(LabLayout layout, String node) {
        return layout.nodes().stream().filter(n -> n.host().toString().equals(node)).findFirst().orElseThrow().plan().role();
    }

    private static io.periscope.plan.HostId host(LabLayout layout, String node) {
        return layout.nodes().stream().filter(n -> n.host().toString().equals(node)).findFirst().orElseThrow().host();
    }
}
