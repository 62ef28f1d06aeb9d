package io.periscope.model.generate;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Service;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SyntheticServicesSelectTheirShareOfPods {

    @Test
    void withMoreAppLabelsThanServicesEachServiceHasPodsOverAppsBackendsAndTheRestAreClients() {
        Cluster cluster = new SyntheticClusterSet(2, 10, 2, 1000, 10, 0, GlobalnetMode.V2, 250).build().clusters().getFirst();

        for (Service service : cluster.services()) {
            assertThat(cluster.endpointsOf(service)).as(service.name()).hasSize(4);
        }
        long backends = cluster.pods().stream()
                .filter(p -> cluster.services().stream().anyMatch(s -> cluster.endpointsOf(s).contains(p))).count();
        assertThat(backends).isEqualTo(40);
    }

    @Test
    void withoutAppLabelsGivenEveryPodIsABackendOfOneService() {
        Cluster cluster = new SyntheticClusterSet(1, 4, 1, 40, 10, 0, GlobalnetMode.V2).build().clusters().getFirst();

        assertThat(cluster.services()).hasSize(10).allSatisfy(s -> assertThat(cluster.endpointsOf(s)).hasSize(4));
    }
}
