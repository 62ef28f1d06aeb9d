package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPSpec;
import io.periscope.kubernetes.testing.MockCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pass decides from its snapshot; by the time its write is carried out, the object it looked at
 * may have been deleted and created again under the same name. The Globalnet controller's status
 * writes, deletes and annotations are made for the object's uid: the status writer leaves a
 * namesake alone, so an address is never written into (or taken from) an object that did not ask.
 */
class WritesHoldToTheUidTheyWereMadeForCrudTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private StatusWriter writer;

    @BeforeEach
    void cluster() {
        cluster = new MockCluster();
        client = cluster.client();
        writer = new StatusWriter(cluster.newClient(), Optional.empty());
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aStatusAndADeleteForTheDeletedObjectLeaveItsNamesakeAlone() {
        String before = egress().getMetadata().getUid();
        client.resources(GlobalEgressIPResource.class).inNamespace("ns1").withName("e").delete();
        awaitGone();
        String now = egress().getMetadata().getUid();
        assertThat(now).isNotEqualTo(before);

        writer.apply(new Action.EditStatus<>(GlobalEgressIPResource.class, "ns1", "e", before, o -> {
            o.setStatus(new AllocationStatus(List.of(), List.of("242.254.1.1"), List.of()));
            return o;
        }));
        assertThat(current().getStatus()).as("the namesake's status").isNull();
        writer.apply(new Action.DeleteNamed(Api.LOCAL, GlobalEgressIPResource.class, "ns1", "e", Optional.of(before)));
        assertThat(current()).as("the namesake").isNotNull();

        writer.apply(new Action.EditStatus<>(GlobalEgressIPResource.class, "ns1", "e", now, o -> {
            o.setStatus(new AllocationStatus(List.of(), List.of("242.254.1.2"), List.of()));
            return o;
        }));
        assertThat(current().getStatus().allocatedIPs()).containsExactly("242.254.1.2");
        writer.apply(new Action.DeleteNamed(Api.LOCAL, GlobalEgressIPResource.class, "ns1", "e", Optional.of(now)));
        assertThat(current()).isNull();
    }

    @Test
    void anAnnotationIsWrittenOnlyIntoTheObjectItWasMadeFor() {
        Service service = client.services().resource(new ServiceBuilder().withNewMetadata().withName("web").withNamespace("default").endMetadata()
                .withNewSpec().withClusterIP("100.0.0.10").endSpec().build()).create();
        String uid = service.getMetadata().getUid();

        writer.apply(new Action.Edit<>(Service.class, "default", "web", "another uid", annotate("242.254.1.3")));
        assertThat(client.services().inNamespace("default").withName("web").get().getMetadata().getAnnotations()).isNullOrEmpty();

        writer.apply(new Action.Edit<>(Service.class, "default", "web", uid, annotate("242.254.1.3")));
        assertThat(client.services().inNamespace("default").withName("web").get().getMetadata().getAnnotations())
                .containsEntry("submariner.io/globalIp", "242.254.1.3");
    }

    private static java.util.function.UnaryOperator<Service> annotate(String address) {
        return s -> {
            Map<String, String> annotations = new HashMap<>(s.getMetadata().getAnnotations() == null ? Map.of() : s.getMetadata().getAnnotations());
            annotations.put("submariner.io/globalIp", address);
            s.getMetadata().setAnnotations(annotations);
            return s;
        };
    }

    private GlobalEgressIPResource egress() {
        GlobalEgressIPResource object = new GlobalEgressIPResource();
        object.setMetadata(new ObjectMetaBuilder().withName("e").withNamespace("ns1").build());
        object.setSpec(new GlobalEgressIPSpec(1, null));
        return client.resource(object).create();
    }

    private GlobalEgressIPResource current() {
        return client.resources(GlobalEgressIPResource.class).inNamespace("ns1").withName("e").get();
    }

    private void awaitGone() {
        io.periscope.kubernetes.testing.Eventually.await("the first object is gone", () -> current() == null);
    }
}
