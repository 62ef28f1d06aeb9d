package io.periscope.kubernetes.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.AllocationStatus;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.globalnet.GlobalnetSettings;
import io.periscope.kubernetes.modelbuilder.StatusGlobalAddresses;
import io.periscope.dataplane.election.LeaseTimings;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Controllers and status reads for Globalnet tests. */
public final class GlobalnetFixture {

    /** Short enough that a handover in a test takes well under a second. */
    public static final LeaseTimings FAST = new LeaseTimings(Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(100));

    private GlobalnetFixture() {
    }

    public static GlobalnetController controller(KubernetesClient client, String clusterId, String identity) {
        return new GlobalnetController(client, new GlobalnetSettings(clusterId, MockCluster.SUBMARINER_NAMESPACE, identity, FAST,
                Duration.ofSeconds(5)), Clock.systemUTC()).start();
    }

    public static Optional<ClusterGlobalEgressIPResource> clusterEgress(KubernetesClient client, String name) {
        return Optional.ofNullable(client.resources(ClusterGlobalEgressIPResource.class).withName(name).get());
    }

    public static Optional<GlobalEgressIPResource> egress(KubernetesClient client, String namespace, String name) {
        return Optional.ofNullable(client.resources(GlobalEgressIPResource.class).inNamespace(namespace).withName(name).get());
    }

    public static Optional<GlobalIngressIPResource> ingress(KubernetesClient client, String namespace, String name) {
        return Optional.ofNullable(client.resources(GlobalIngressIPResource.class).inNamespace(namespace).withName(name).get());
    }

    /** The per-gateway slices in the GlobalEgressIP's status: none while it has no status or no slices. */
    public static List<AllocationStatus.GatewaySlice> gatewaySlices(KubernetesClient client, String namespace, String name) {
        return egress(client, namespace, name).map(e -> e.getStatus())
                .map(s -> s.gatewaySlices() == null ? List.<AllocationStatus.GatewaySlice>of() : s.gatewaySlices()).orElse(List.of());
    }

    /** The Allocated condition's reason, or empty when there is no status yet. */
    public static Optional<String> reason(io.fabric8.kubernetes.api.model.HasMetadata object) {
        return allocated(object).map(c -> c.getReason());
    }

    /** The Allocated condition's message, or empty when there is no status yet. */
    public static Optional<String> message(io.fabric8.kubernetes.api.model.HasMetadata object) {
        return allocated(object).map(c -> c.getMessage());
    }

    private static Optional<io.fabric8.kubernetes.api.model.Condition> allocated(io.fabric8.kubernetes.api.model.HasMetadata object) {
        List<io.fabric8.kubernetes.api.model.Condition> conditions = switch (object) {
            case ClusterGlobalEgressIPResource c -> c.getStatus() == null ? List.of() : c.getStatus().conditions();
            case GlobalEgressIPResource e -> e.getStatus() == null ? List.of() : e.getStatus().conditions();
            case GlobalIngressIPResource i -> i.getStatus() == null ? List.of() : i.getStatus().conditions();
            default -> List.of();
        };
        return conditions.stream().filter(c -> "Allocated".equals(c.getType())).findFirst();
    }

    /**
     * Every address held in status by any Globalnet object, and every gateway's own global IP (its
     * Gateway object's annotation), with repeats: a repeat is a double allocation.
     */
    public static List<String> everyAllocatedAddress(KubernetesClient client) {
        List<String> addresses = new ArrayList<>();
        client.resources(ClusterGlobalEgressIPResource.class).list().getItems().forEach(o -> {
            if (o.getStatus() != null) {
                addresses.addAll(o.getStatus().allocatedIPs());
            }
        });
        client.resources(GlobalEgressIPResource.class).inAnyNamespace().list().getItems().forEach(o -> {
            if (o.getStatus() != null) {
                addresses.addAll(o.getStatus().allocatedIPs());
            }
        });
        client.resources(GlobalIngressIPResource.class).inAnyNamespace().list().getItems().forEach(o -> {
            if (o.getStatus() != null && o.getStatus().allocatedIP() != null) {
                addresses.add(o.getStatus().allocatedIP());
            }
        });
        // The gateways' own global IPs, in their Gateway objects' annotation.
        client.resources(Gateway.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).list().getItems()
                .forEach(g -> StatusGlobalAddresses.annotated(g).ifPresent(a -> addresses.add(a.toString())));
        return addresses;
    }

    /** A gateway's own global IP: its Gateway object's {@code submariner.io/globalIp} annotation, empty while it has none. */
    public static Optional<String> gatewayGlobalIp(KubernetesClient client, String node) {
        return Optional.ofNullable(client.resources(Gateway.class).inNamespace(MockCluster.SUBMARINER_NAMESPACE).withName(node).get())
                .flatMap(StatusGlobalAddresses::annotated).map(Object::toString);
    }
}
