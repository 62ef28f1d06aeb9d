package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.Condition;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPResource;
import io.periscope.kubernetes.crd.GlobalIngressIPSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import static io.periscope.model.globalnet.ClusterGlobalEgressIP.DEFAULT_NAME;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.planner.GlobalAddresses;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The planner's {@link GlobalAddresses} answered from live objects' status: what the Globalnet
 * controller wrote on ClusterGlobalEgressIP, GlobalEgressIP and GlobalIngressIP objects (only those
 * whose {@code Allocated} condition is True), remote gateways' {@code allocated_ips} from their
 * Endpoints, and global CIDRs from Cluster objects. An object without a successful allocation
 * answers empty, so the planner programs nothing for it, as upstream does. With the first design
 * (legacy) the addresses are the {@code submariner.io/globalIp} annotations of pods, nodes and
 * exported services. A gateway's own global IP is its Gateway object's annotation (Globalnet 2.0,
 * where upstream keeps it from 0.18 on) or its node's (legacy).
 */
public final class StatusGlobalAddresses implements GlobalAddresses {

    private final Map<String, Ipv4Prefix> globalCidrs;
    private final Map<String, List<Ipv4Address>> clusterEgress = new HashMap<>();
    private final Map<String, List<Ipv4Address>> egress = new HashMap<>();
    private final Map<String, List<Ipv4Address>> egressSlices = new HashMap<>();
    private final Map<String, Ipv4Address> serviceIngress = new HashMap<>();
    private final Map<String, Ipv4Address> podIngress = new HashMap<>();
    private final Map<String, Ipv4Address> legacyPods = new HashMap<>();
    private final Map<String, Ipv4Address> legacyNodes = new HashMap<>();
    private final Map<String, Ipv4Address> legacyServices = new HashMap<>();
    /** Local gateways' own global IPs, from their Gateway objects' annotation. */
    private final Map<String, Ipv4Address> gateways = new HashMap<>();
    /** Remote gateways' own global IPs, from their Endpoints' healthCheckIP. */
    private final Map<String, Ipv4Address> remoteGatewayIps = new HashMap<>();

    private StatusGlobalAddresses(Map<String, Ipv4Prefix> globalCidrs) {
        this.globalCidrs = Map.copyOf(globalCidrs);
    }

    static StatusGlobalAddresses of(List<LiveObjects> fullyRead, Map<String, Ipv4Prefix> globalCidrs, List<SubmarinerEndpoint> endpoints) {
        StatusGlobalAddresses addresses = new StatusGlobalAddresses(globalCidrs);
        List<String> local = new ArrayList<>();
        for (LiveObjects live : fullyRead) {
            String cluster = live.clusterId();
            local.add(cluster);
            for (ClusterGlobalEgressIPResource object : live.clusterGlobalEgressIPs()) {
                String name = object.getMetadata().getName();
                String gateway = name.equals(DEFAULT_NAME) ? "" : name.endsWith("-" + DEFAULT_NAME)
                        ? name.substring(0, name.length() - DEFAULT_NAME.length() - 1) : null;
                if (gateway != null && object.getStatus() != null && allocated(object.getStatus().conditions())) {
                    addresses.clusterEgress.put(key(cluster, gateway), parse(object.getStatus().allocatedIPs()));
                }
            }
            for (GlobalEgressIPResource object : live.globalEgressIPs()) {
                if (object.getStatus() != null && allocated(object.getStatus().conditions())) {
                    addresses.egress.put(key(cluster, object.getMetadata().getNamespace(), object.getMetadata().getName()),
                            parse(object.getStatus().allocatedIPs()));
                    if (object.getStatus().gatewaySlices() != null) {
                        for (var slice : object.getStatus().gatewaySlices()) {
                            addresses.egressSlices.put(key(cluster, object.getMetadata().getNamespace(), object.getMetadata().getName(),
                                    slice.gateway()), parse(slice.allocatedIPs()));
                        }
                    }
                }
            }
            for (var pod : live.pods()) {
                annotated(pod).ifPresent(ip -> addresses.legacyPods.put(key(cluster, pod.getMetadata().getNamespace(), pod.getMetadata().getName()), ip));
            }
            for (var node : live.nodes()) {
                annotated(node).ifPresent(ip -> addresses.legacyNodes.put(key(cluster, node.getMetadata().getName()), ip));
            }
            for (var gateway : live.gateways()) {
                annotated(gateway).ifPresent(ip -> addresses.gateways.put(key(cluster, gateway.getMetadata().getName()), ip));
            }
            for (var service : live.services()) {
                annotated(service).ifPresent(ip -> addresses.legacyServices.put(
                        key(cluster, service.getMetadata().getNamespace(), service.getMetadata().getName()), ip));
            }
            for (GlobalIngressIPResource object : live.globalIngressIPs()) {
                GlobalIngressIPSpec spec = object.getSpec();
                if (spec == null || object.getStatus() == null || !allocated(object.getStatus().conditions())) {
                    continue;
                }
                List<Ipv4Address> address = parse(object.getStatus().allocatedIP() == null ? List.of() : List.of(object.getStatus().allocatedIP()));
                if (address.isEmpty()) {
                    continue;
                }
                String namespace = object.getMetadata().getNamespace();
                if (GlobalIngressIPSpec.CLUSTER_IP_SERVICE.equals(spec.target()) && spec.serviceRef() != null) {
                    addresses.serviceIngress.put(key(cluster, namespace, spec.serviceRef().getName()), address.getFirst());
                } else if (GlobalIngressIPSpec.HEADLESS_SERVICE_POD.equals(spec.target()) && spec.podRef() != null) {
                    addresses.podIngress.put(key(cluster, namespace, spec.podRef().getName()), address.getFirst());
                }
            }
        }
        // A remote cluster's per-gateway addresses reach this cluster only through its Endpoints.
        for (SubmarinerEndpoint endpoint : endpoints) {
            var spec = endpoint.getSpec();
            if (spec != null && spec.clusterId() != null && !local.contains(spec.clusterId()) && spec.hostname() != null) {
                addresses.clusterEgress.put(key(spec.clusterId(), spec.hostname()), parse(spec.allocatedIPs()));
                // A remote gateway's own global IP is its healthCheckIP when that lies in its cluster's global CIDR.
                Optional<Ipv4Prefix> remoteCidr = Optional.ofNullable(globalCidrs.get(spec.clusterId()));
                parse(spec.healthCheckIP() == null ? List.of() : List.of(spec.healthCheckIP())).stream()
                        .filter(ip -> remoteCidr.filter(c -> c.contains(ip)).isPresent()).findFirst()
                        .ifPresent(ip -> addresses.remoteGatewayIps.put(key(spec.clusterId(), spec.hostname()), ip));
            }
        }
        return addresses;
    }

    /** Whether the {@code Allocated} condition is True: only then do the addresses in status count. */
    public static boolean allocated(List<Condition> conditions) {
        return conditions.stream().anyMatch(c -> SubmarinerApi.ALLOCATED_CONDITION.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The {@code submariner.io/globalIp} annotation (a Gateway's, or legacy Globalnet's on pods, nodes and services), when it holds an address. */
    public static Optional<Ipv4Address> annotated(io.fabric8.kubernetes.api.model.HasMetadata object) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(SubmarinerApi.GLOBAL_IP_ANNOTATION);
        List<Ipv4Address> parsed = parse(text == null ? List.of() : List.of(text.trim()));
        return parsed.isEmpty() ? Optional.empty() : Optional.of(parsed.getFirst());
    }

    private static List<Ipv4Address> parse(List<String> texts) {
        List<Ipv4Address> addresses = new ArrayList<>();
        for (String text : texts) {
            try {
                addresses.add(Ipv4Address.parse(text));
            } catch (IllegalArgumentException e) {
                // A status someone edited by hand: the address is not used, and the controller rewrites the status.
            }
        }
        return addresses;
    }

    private static String key(String... parts) {
        return String.join("\0", parts);
    }

    @Override
    public Optional<Ipv4Prefix> globalCidr(String cluster) {
        return Optional.ofNullable(globalCidrs.get(cluster));
    }

    @Override
    public List<Ipv4Address> clusterEgress(String cluster, Optional<String> gateway) {
        if (gateway.isPresent()) {
            List<Ipv4Address> own = clusterEgress.get(key(cluster, gateway.get()));
            if (own != null) {
                return own;
            }
        }
        return clusterEgress.getOrDefault(key(cluster, ""), List.of());
    }

    @Override
    public List<Ipv4Address> egress(String cluster, String namespace, String name) {
        return egress.getOrDefault(key(cluster, namespace, name), List.of());
    }

    @Override
    public List<Ipv4Address> egress(String cluster, String namespace, String name, String gateway) {
        // Under per-gateway ownership a gateway SNATs to its slice or to nothing: never to another gateway's addresses.
        return egressSlices.getOrDefault(key(cluster, namespace, name, gateway), List.of());
    }

    @Override
    public Optional<Ipv4Address> serviceIngress(String cluster, String namespace, String service) {
        return Optional.ofNullable(serviceIngress.get(key(cluster, namespace, service)))
                .or(() -> Optional.ofNullable(legacyServices.get(key(cluster, namespace, service))));
    }

    @Override
    public Optional<Ipv4Address> headlessPodIngress(String cluster, String namespace, String pod) {
        return Optional.ofNullable(podIngress.get(key(cluster, namespace, pod)));
    }

    @Override
    public Optional<Ipv4Address> legacyPod(String cluster, String namespace, String pod) {
        return Optional.ofNullable(legacyPods.get(key(cluster, namespace, pod)));
    }

    /**
     * A local gateway's {@code submariner.io/globalIp} annotation: its Gateway object's (the
     * Globalnet controller writes each active gateway's there, and a gateway keeps it when it stops
     * being active), with legacy Globalnet its node's; or a remote gateway's healthCheckIP from its
     * Endpoint.
     */
    @Override
    public Optional<Ipv4Address> gatewayGlobalIp(String cluster, String node) {
        return Optional.ofNullable(gateways.get(key(cluster, node))).or(() -> Optional.ofNullable(legacyNodes.get(key(cluster, node))))
                .or(() -> Optional.ofNullable(remoteGatewayIps.get(key(cluster, node))));
    }

    @Override
    public Optional<Ipv4Address> legacyNode(String cluster, String node) {
        return Optional.ofNullable(legacyNodes.get(key(cluster, node)));
    }
}
