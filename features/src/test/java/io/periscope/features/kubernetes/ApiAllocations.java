package io.periscope.features.kubernetes;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.model.globalnet.AllocationCondition;
import io.periscope.model.globalnet.AllocationReason;
import io.periscope.model.globalnet.ClusterGlobalnetAllocations;
import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.globalnet.GlobalIpAllocation.ClusterEgress;
import io.periscope.model.globalnet.GlobalIpAllocation.Egress;
import io.periscope.model.globalnet.GlobalIpAllocation.EgressSlice;
import io.periscope.model.globalnet.GlobalIpAllocation.Ingress;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyNode;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyPod;
import io.periscope.model.globalnet.GlobalIpAllocation.LegacyService;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One cluster's global IPs as its API server holds them: the global CIDR of its Cluster object, each
 * object's addresses and {@code Allocated} condition from its status (the first design's from the
 * {@code submariner.io/globalIp} annotations, which carry no status), and the pool's free addresses
 * as what no object of the API holds. The plan only names which objects to look for (so that a step
 * can name them as the scenarios do); nothing of what they hold is taken from it. An object the API
 * lacks, or one the controller has not written a status on, is left out.
 */
public final class ApiAllocations {

    private ApiAllocations() {
    }

    /**
     * @param planned the objects to look for, as {@code periscope plan} names them
     * @throws AssertionError when the API's Cluster object has no global CIDR
     */
    public static ClusterGlobalnetAllocations read(KubernetesClient client, String namespace, ClusterGlobalnetAllocations planned) {
        SubmarinerCluster cluster = client.resources(SubmarinerCluster.class).inNamespace(namespace).withName(planned.cluster()).get();
        if (cluster == null || cluster.getSpec().globalCidr().isEmpty()) {
            throw new AssertionError("cluster " + planned.cluster() + "'s API holds no global CIDR in its Cluster object "
                    + namespace + "/" + planned.cluster());
        }
        Ipv4Prefix cidr = Ipv4Prefix.parse(cluster.getSpec().globalCidr().getFirst());
        List<GlobalIpAllocation> read = new ArrayList<>();
        for (GlobalIpAllocation allocation : planned.allocations()) {
            ApiGlobalnet.read(client, allocation.requester()).flatMap(object -> as(allocation, object)).ifPresent(read::add);
        }
        return new ClusterGlobalnetAllocations(planned.cluster(), cidr, read, free(client, cidr));
    }

    /** The planned requester with what its object holds; empty when the object carries no {@code Allocated} condition yet. */
    private static Optional<GlobalIpAllocation> as(GlobalIpAllocation planned, ApiGlobalnet object) {
        Optional<Condition> allocated = object.allocated();
        if (allocated.isEmpty()) {
            return Optional.empty();
        }
        AllocationCondition condition = condition(planned.requester(), allocated.get());
        List<Ipv4Address> addresses = object.addresses().stream().map(Ipv4Address::parse).toList();
        return Optional.of(switch (planned) {
            case ClusterEgress e -> new ClusterEgress(e.object(), addresses, condition);
            case Egress e -> new Egress(e.object(), addresses, condition);
            case EgressSlice e -> new EgressSlice(e.object(), e.gateway(), addresses, condition);
            case Ingress i -> new Ingress(i.object(), addresses, condition);
            case GlobalIpAllocation.Gateway g -> new GlobalIpAllocation.Gateway(g.node(), addresses, condition);
            case LegacyService s -> new LegacyService(s.service(), addresses, condition);
            case LegacyPod p -> new LegacyPod(p.pod(), addresses, condition);
            case LegacyNode n -> new LegacyNode(n.node(), addresses, condition);
        });
    }

    private static AllocationCondition condition(String requester, Condition written) {
        AllocationReason reason = Arrays.stream(AllocationReason.values()).filter(r -> r.upstreamName().equals(written.getReason())).findFirst()
                .orElseThrow(() -> new AssertionError(requester + "'s Allocated condition gives the reason '" + written.getReason()
                        + "', which Globalnet never writes"));
        String message = written.getMessage() == null ? "" : written.getMessage();
        return "True".equals(written.getStatus()) ? new AllocationCondition(AllocationCondition.ALLOCATED, AllocationCondition.Status.TRUE,
                reason, message) : AllocationCondition.failure(reason, message);
    }

    /** The pool's usable addresses (the CIDR without its network and broadcast addresses) that no object of the API holds. */
    private static int free(KubernetesClient client, Ipv4Prefix cidr) {
        Set<String> held = new HashSet<>();
        client.resources(ClusterGlobalEgressIPResource.class).list().getItems().stream().filter(o -> o.getStatus() != null)
                .forEach(o -> held.addAll(o.getStatus().allocatedIPs()));
        client.resources(GlobalEgressIPResource.class).inAnyNamespace().list().getItems().stream().filter(o -> o.getStatus() != null)
                .forEach(o -> held.addAll(o.getStatus().allocatedIPs()));
        client.resources(GlobalIngressIPResource.class).inAnyNamespace().list().getItems().stream()
                .filter(o -> o.getStatus() != null && o.getStatus().allocatedIP() != null).forEach(o -> held.add(o.getStatus().allocatedIP()));
        List<HasMetadata> annotated = new ArrayList<>();
        annotated.addAll(client.resources(Gateway.class).inAnyNamespace().list().getItems());
        annotated.addAll(client.services().inAnyNamespace().list().getItems());
        annotated.addAll(client.pods().inAnyNamespace().list().getItems());
        annotated.addAll(client.nodes().list().getItems());
        for (HasMetadata object : annotated) {
            Optional.ofNullable(object.getMetadata().getAnnotations()).map(a -> a.get(SubmarinerApi.GLOBAL_IP_ANNOTATION)).ifPresent(held::add);
        }
        long usable = Math.max(0, cidr.size() - 2);
        return (int) (usable - held.stream().map(Ipv4Address::parse).filter(cidr::contains).count());
    }
}
