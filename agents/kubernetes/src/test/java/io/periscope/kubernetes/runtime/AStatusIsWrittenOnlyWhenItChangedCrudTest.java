package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GatewayStatus;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node agent writes its own object's status on every pass ({@link Action.PutStatus}): the status
 * writer creates the object when it is missing and writes the status only when it differs, so a
 * pass that finds nothing new costs the API server one read.
 */
class AStatusIsWrittenOnlyWhenItChangedCrudTest {

    private static final String NAMESPACE = MockCluster.SUBMARINER_NAMESPACE;

    private MockCluster cluster;
    private KubernetesClient client;
    private StatusWriter writer;

    @BeforeEach
    void cluster() {
        cluster = new MockCluster();
        client = cluster.client();
        writer = new StatusWriter(cluster.newClient(), Optional.empty());
        cluster.takeRequests();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void theObjectIsCreatedThenItsStatusIsWrittenOnceAndAgainOnlyWhenItChanges() {
        writer.apply(put(GatewayStatus.PASSIVE));
        List<String> first = writes();
        assertThat(first).contains("POST /apis/submariner.io/v1/namespaces/" + NAMESPACE + "/gateways")
                .anyMatch(w -> w.startsWith("PATCH ") && w.endsWith("/gateways/gw-1/status"));
        assertThat(gateway().getStatus().haStatus()).isEqualTo(GatewayStatus.PASSIVE);

        writer.apply(put(GatewayStatus.PASSIVE));
        assertThat(writes()).as("the same status again: read, nothing written").isEmpty();

        writer.apply(put(GatewayStatus.ACTIVE));
        assertThat(writes()).singleElement().satisfies(w -> assertThat(w).startsWith("PATCH ").endsWith("/gateways/gw-1/status"));
        assertThat(gateway().getStatus().haStatus()).isEqualTo(GatewayStatus.ACTIVE);
    }

    private Action put(String haStatus) {
        return new Action.PutStatus<>(Gateway.class, Gateway::new, NAMESPACE, "gw-1", new GatewayStatus("periscope", haStatus, null, null, List.of()));
    }

    private Gateway gateway() {
        return client.resources(Gateway.class).inNamespace(NAMESPACE).withName("gw-1").get();
    }

    /** The requests since the last call that change something: method and path. */
    private List<String> writes() {
        return cluster.takeRequests().stream().filter(r -> !r.getMethod().equals("GET"))
                .map(r -> r.getMethod() + " " + path(r)).toList();
    }

    private static String path(RecordedRequest request) {
        String path = request.getPath();
        return path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    }
}
