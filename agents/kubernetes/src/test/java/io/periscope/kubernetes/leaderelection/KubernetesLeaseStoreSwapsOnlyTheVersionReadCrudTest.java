package io.periscope.kubernetes.leaderelection;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.dataplane.election.LeaseRecord;
import io.periscope.dataplane.election.LeaseStore;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The election's compare and swap is the API server's: a write carrying a resourceVersion that is no
 * longer current, or a create of a Lease that exists, writes nothing; what is written reads back
 * as client-go writes it, and the model builder counts its holder as active while it is fresh.
 */
class KubernetesLeaseStoreSwapsOnlyTheVersionReadCrudTest {

    private MockCluster cluster;

    @BeforeEach
    void cluster() {
        cluster = new MockCluster();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aStaleVersionAndASecondCreateWriteNothing() {
        LeaseStore gw1 = new KubernetesLeaseStore(cluster.newClient(), MockCluster.SUBMARINER_NAMESPACE, "submariner-gateway-lock");
        LeaseStore gw2 = new KubernetesLeaseStore(cluster.newClient(), MockCluster.SUBMARINER_NAMESPACE, "submariner-gateway-lock");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        assertThat(gw1.read()).isEmpty();

        Optional<String> created = gw1.write(Optional.empty(), new LeaseRecord("gw-1", now, now, Duration.ofMillis(1500), 0));
        assertThat(created).isPresent();
        assertThat(gw2.write(Optional.empty(), new LeaseRecord("gw-2", now, now, Duration.ofSeconds(2), 0))).as("it exists").isEmpty();

        LeaseStore.Versioned read = gw2.read().orElseThrow();
        assertThat(read.version()).isEqualTo(created.get());
        assertThat(read.record()).isEqualTo(new LeaseRecord("gw-1", now, now, Duration.ofSeconds(2), 0));

        Optional<String> renewed = gw1.write(created, new LeaseRecord("gw-1", now, now.plusSeconds(1), Duration.ofMillis(1500), 0));
        assertThat(renewed).isPresent().isNotEqualTo(created);
        assertThat(gw2.write(Optional.of(read.version()), new LeaseRecord("gw-2", now, now, Duration.ofSeconds(2), 1)))
                .as("gw-2 read before the renewal").isEmpty();
        assertThat(gw1.read().orElseThrow().record().holder()).isEqualTo("gw-1");

        KubernetesClient client = cluster.client();
        List<Lease> leases = client.resources(Lease.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).list().getItems();
        assertThat(leases.getFirst().getSpec().getLeaseDurationSeconds()).as("1.5 s rounds up").isEqualTo(2);
        assertThat(LiveObjectsReader.activeGateways(leases, now.plusSeconds(2))).contains(Set.of("gw-1"));
        assertThat(LiveObjectsReader.activeGateways(leases, now.plusSeconds(4))).contains(Set.of());
    }
}
