package io.periscope.features.kubernetes;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.SubmarinerApi;

import java.util.List;
import java.util.Optional;

/**
 * A Globalnet object as the API holds it, named as the scenarios and the IPAM name it ({@code GlobalEgressIP
 * ns1/ns-egressip}), or a gateway's own global IP ({@code Gateway gw-1}, its Gateway object's annotation).
 */
public record ApiGlobalnet(String requester, List<String> addresses, List<Condition> conditions) {

    /** The object, or empty when the API has none by that name. */
    public static Optional<ApiGlobalnet> read(KubernetesClient client, String requester) {
        String[] kindAndName = requester.trim().split("\\s+", 2);
        if (kindAndName.length != 2) {
            throw new IllegalArgumentException("'" + requester + "' is not '<kind> <name>' or '<kind> <namespace>/<name>'");
        }
        String kind = kindAndName[0];
        String name = kindAndName[1];
        int slice = name.indexOf(SLICE);
        if (kind.equals("GlobalEgressIP") && slice > 0 && name.endsWith(")")) {
            return gatewaySlice(client, requester, name.substring(0, slice), name.substring(slice + SLICE.length(), name.length() - 1));
        }
        int slash = name.indexOf('/');
        String namespace = slash < 0 ? null : name.substring(0, slash);
        String object = slash < 0 ? name : name.substring(slash + 1);
        return switch (kind) {
            case "ClusterGlobalEgressIP" -> Optional.ofNullable(client.resources(ClusterGlobalEgressIPResource.class).withName(object).get())
                    .map(o -> new ApiGlobalnet(requester, o.getStatus() == null ? List.of() : o.getStatus().allocatedIPs(),
                            o.getStatus() == null ? List.of() : o.getStatus().conditions()));
            case "GlobalEgressIP" -> Optional.ofNullable(client.resources(GlobalEgressIPResource.class).inNamespace(namespace).withName(object).get())
                    .map(o -> new ApiGlobalnet(requester, o.getStatus() == null ? List.of() : o.getStatus().allocatedIPs(),
                            o.getStatus() == null ? List.of() : o.getStatus().conditions()));
            case "GlobalIngressIP" -> Optional.ofNullable(client.resources(GlobalIngressIPResource.class).inNamespace(namespace).withName(object).get())
                    .map(o -> new ApiGlobalnet(requester, o.getStatus() == null || o.getStatus().allocatedIP() == null ? List.of()
                            : List.of(o.getStatus().allocatedIP()), o.getStatus() == null ? List.of() : o.getStatus().conditions()));
            // A gateway's own global IP is its Gateway object's annotation; upstream's Gateway
            // controller writes no condition, so one that holds an address reads as allocated, one without as no status.
            case "Gateway" -> Optional.ofNullable(client.resources(Gateway.class).inNamespace(KubernetesControlPlane.NAMESPACE).withName(object).get())
                    .map(g -> {
                        String annotated = g.getMetadata().getAnnotations() == null ? null
                                : g.getMetadata().getAnnotations().get(SubmarinerApi.GLOBAL_IP_ANNOTATION);
                        return annotated == null ? new ApiGlobalnet(requester, List.of(), List.of())
                                : new ApiGlobalnet(requester, List.of(annotated), List.of(new io.fabric8.kubernetes.api.model.ConditionBuilder()
                                        .withType(SubmarinerApi.ALLOCATED_CONDITION).withStatus("True").withReason("Success").build()));
                    });
            // The first design (seed 000) records a global IP only in the object's annotation, and writes no status.
            case "service" -> Optional.ofNullable(client.services().inNamespace(namespace).withName(object).get())
                    .map(o -> annotated(requester, o));
            case "pod" -> Optional.ofNullable(client.pods().inNamespace(namespace).withName(object).get()).map(o -> annotated(requester, o));
            case "node" -> Optional.ofNullable(client.nodes().withName(object).get()).map(o -> annotated(requester, o));
            default -> throw new IllegalArgumentException("'" + kind + "' is not a Globalnet kind (ClusterGlobalEgressIP, GlobalEgressIP,"
                    + " GlobalIngressIP), Gateway, or the first design's service, pod or node");
        };
    }

    /** How the IPAM names one gateway's part of a GlobalEgressIP with per-gateway egress ownership. */
    private static final String SLICE = " (slice of gateway ";

    /** With per-gateway egress ownership: the gateway's slice in the object's status, under the object's condition. */
    private static Optional<ApiGlobalnet> gatewaySlice(KubernetesClient client, String requester, String qualifiedName, String gateway) {
        int slash = qualifiedName.indexOf('/');
        GlobalEgressIPResource object = client.resources(GlobalEgressIPResource.class).inNamespace(qualifiedName.substring(0, slash))
                .withName(qualifiedName.substring(slash + 1)).get();
        if (object == null) {
            return Optional.empty();
        }
        List<Condition> conditions = object.getStatus() == null ? List.of() : object.getStatus().conditions();
        List<String> addresses = object.getStatus() == null || object.getStatus().gatewaySlices() == null ? List.of()
                : object.getStatus().gatewaySlices().stream().filter(s -> s.gateway().equals(gateway)).findFirst()
                .map(s -> s.allocatedIPs()).orElse(List.of());
        return Optional.of(new ApiGlobalnet(requester, addresses, conditions));
    }

    /** An annotated object reads as allocated; one without the annotation has no status, for the first design writes none. */
    private static ApiGlobalnet annotated(String requester, io.fabric8.kubernetes.api.model.HasMetadata object) {
        String address = object.getMetadata().getAnnotations() == null ? null
                : object.getMetadata().getAnnotations().get(SubmarinerApi.GLOBAL_IP_ANNOTATION);
        return address == null ? new ApiGlobalnet(requester, List.of(), List.of())
                : new ApiGlobalnet(requester, List.of(address), List.of(new io.fabric8.kubernetes.api.model.ConditionBuilder()
                        .withType(SubmarinerApi.ALLOCATED_CONDITION).withStatus("True").withReason("Success").build()));
    }

    /** The controller's {@code Allocated} condition. */
    public Optional<Condition> allocated() {
        return condition(SubmarinerApi.ALLOCATED_CONDITION);
    }

    public Optional<Condition> condition(String type) {
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** The addresses as the documents write them: one address, or a contiguous range {@code first-last}. */
    public String addressText() {
        return addresses.isEmpty() ? "none" : addresses.size() == 1 ? addresses.getFirst() : addresses.getFirst() + "-" + addresses.getLast();
    }
}
