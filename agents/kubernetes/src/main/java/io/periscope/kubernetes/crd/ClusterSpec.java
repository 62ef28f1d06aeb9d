package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.List;

/**
 * Upstream's Cluster spec (snake_case, as upstream writes it) plus what Periscope's planner needs
 * to know about a cluster that upstream keeps in its operator's configuration: the CNI, the
 * multi-active-gateway flag, the cluster egress size, the load balancing, the cable driver, the
 * Globalnet design the cluster's controller runs, the egress ownership and the behaviour (seeds or
 * upstream) the cluster set follows.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterSpec(
        @JsonProperty("cluster_id") String clusterId,
        @JsonProperty("color_codes") List<String> colorCodes,
        @JsonProperty("cluster_cidr") List<String> clusterCidr,
        @JsonProperty("service_cidr") List<String> serviceCidr,
        @JsonProperty("global_cidr") List<String> globalCidr,
        @JsonProperty("cni") @JsonPropertyDescription("kube-proxy or ovn-kubernetes (default kube-proxy).") String cni,
        @JsonProperty("multi_active_gateways") @JsonPropertyDescription("Every labelled gateway node is active (--multi-active-gateway).")
        Boolean multiActiveGateways,
        @JsonProperty("cluster_egress_ips") @JsonPropertyDescription("Addresses of the default ClusterGlobalEgressIP, per gateway with multiple active gateways (default 8).")
        Integer clusterEgressIPs,
        @JsonProperty("gateway_load_balancing") @JsonPropertyDescription("multipath-routes, nexthop-groups or resilient-nexthop-groups.")
        String gatewayLoadBalancing,
        @JsonProperty("cable_driver") @JsonPropertyDescription("The cable driver used where no ClusterConnectionPolicies entry matches.")
        String cableDriver,
        @JsonProperty("globalnet_mode") @JsonPropertyDescription("v2 (Globalnet 2.0, the default) or legacy (the first design: a submariner.io/globalIp annotation on every pod, node and exported service).")
        String globalnetMode,
        @JsonProperty("egress_ownership") @JsonPropertyDescription("shared (seed 004, the default) or per-gateway: with multiple active gateways and Globalnet 2.0, every GlobalEgressIP gets a slice per active gateway and every headless pod one owning gateway.")
        String egressOwnership,
        @JsonProperty("behaviour") @JsonPropertyDescription("seeds (the default) or upstream: whose word decides where the seed documents and upstream Submariner disagree (the topology file's behaviour; docs/plan.md lists the places). The cluster set's one setting: the agents read it from their own cluster's object.")
        String behaviour) {

    /** A cluster running Globalnet 2.0 (or no Globalnet): the mode is left unset. */
    public ClusterSpec(String clusterId, List<String> colorCodes, List<String> clusterCidr, List<String> serviceCidr, List<String> globalCidr,
                       String cni, Boolean multiActiveGateways, Integer clusterEgressIPs, String gatewayLoadBalancing, String cableDriver) {
        this(clusterId, colorCodes, clusterCidr, serviceCidr, globalCidr, cni, multiActiveGateways, clusterEgressIPs, gatewayLoadBalancing,
                cableDriver, null);
    }

    /** A cluster whose egress addresses are shared by its gateways, as seed 004 describes: the ownership is left unset. */
    public ClusterSpec(String clusterId, List<String> colorCodes, List<String> clusterCidr, List<String> serviceCidr, List<String> globalCidr,
                       String cni, Boolean multiActiveGateways, Integer clusterEgressIPs, String gatewayLoadBalancing, String cableDriver,
                       String globalnetMode) {
        this(clusterId, colorCodes, clusterCidr, serviceCidr, globalCidr, cni, multiActiveGateways, clusterEgressIPs, gatewayLoadBalancing,
                cableDriver, globalnetMode, null);
    }

    /** A cluster that follows the seeds where they and upstream disagree: the behaviour is left unset. */
    public ClusterSpec(String clusterId, List<String> colorCodes, List<String> clusterCidr, List<String> serviceCidr, List<String> globalCidr,
                       String cni, Boolean multiActiveGateways, Integer clusterEgressIPs, String gatewayLoadBalancing, String cableDriver,
                       String globalnetMode, String egressOwnership) {
        this(clusterId, colorCodes, clusterCidr, serviceCidr, globalCidr, cni, multiActiveGateways, clusterEgressIPs, gatewayLoadBalancing,
                cableDriver, globalnetMode, egressOwnership, null);
    }

    /** The same spec with another {@code global_cidr}: what the broker sync writes once the broker handed one out. */
    public ClusterSpec withGlobalCidr(List<String> cidrs) {
        return new ClusterSpec(clusterId, colorCodes, clusterCidr, serviceCidr, cidrs, cni, multiActiveGateways, clusterEgressIPs,
                gatewayLoadBalancing, cableDriver, globalnetMode, egressOwnership, behaviour);
    }

    public ClusterSpec {
        colorCodes = colorCodes == null ? List.of() : List.copyOf(colorCodes);
        clusterCidr = clusterCidr == null ? List.of() : List.copyOf(clusterCidr);
        serviceCidr = serviceCidr == null ? List.of() : List.copyOf(serviceCidr);
        globalCidr = globalCidr == null ? List.of() : List.copyOf(globalCidr);
    }
}
