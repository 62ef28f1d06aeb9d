package io.periscope.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import io.periscope.model.globalnet.ClusterGlobalnetAllocations;
import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.globalnet.GlobalnetAllocations;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.Node;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@code periscope check} shows about a loaded file: enough to see at a glance that the file
 * says what its author meant (which CIDRs, which gateways carry traffic, how much is in each cluster).
 * The same record is printed as text for people and serialized as JSON for scripts.
 */
public record TopologySummary(String name, GlobalnetSummary globalnet, List<ClusterSummary> clusters, int flows) {

    public TopologySummary {
        clusters = List.copyOf(clusters);
    }

    public record GlobalnetSummary(boolean enabled, String cidr, int clusterSize) {
    }

    /** @param globalCidr the file's globalCIDR; null when it names none and the broker assigns one */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ClusterSummary(
            String name,
            String cni,
            @JsonProperty("podCIDRs") List<String> podCidrs,
            @JsonProperty("serviceCIDRs") List<String> serviceCidrs,
            @JsonProperty("globalCIDR") String globalCidr,
            boolean multiActiveGateways,
            List<GatewaySummary> gateways,
            int nodes,
            int pods,
            int services,
            int exports,
            @JsonProperty("assignedGlobalCIDR") String assignedGlobalCidr,
            List<AllocationSummary> allocations) {

        public ClusterSummary {
            podCidrs = List.copyOf(podCidrs);
            serviceCidrs = List.copyOf(serviceCidrs);
            gateways = List.copyOf(gateways);
            allocations = List.copyOf(allocations);
        }
    }

    /** One Globalnet object's allocation: who asked, what it got, and the status reason. */
    public record AllocationSummary(String object, List<String> addresses, String reason, String message) {
    }

    public record GatewaySummary(String node, String ip, GatewayState state) {
    }

    public enum GatewayState {
        /** Carries the cluster's cross-cluster traffic. */
        ACTIVE,
        /** Waits on the leadership lease to take over. */
        STANDBY,
        /** Named by {@code --fail}. */
        FAILED;

        @JsonValue
        public String lowerName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static TopologySummary of(ClusterSet clusterSet, Collection<NodeReference> failedNodes) {
        return of(clusterSet, GlobalnetAllocations.NONE, failedNodes);
    }

    public static TopologySummary of(ClusterSet clusterSet, GlobalnetAllocations allocations, Collection<NodeReference> failedNodes) {
        GlobalnetConfig globalnet = clusterSet.globalnet();
        return new TopologySummary(
                clusterSet.name(),
                new GlobalnetSummary(globalnet.enabled(), globalnet.cidr().toString(), globalnet.clusterSize()),
                clusterSet.clusters().stream().map(c -> summarize(c, allocations.cluster(c.name()), failedNodes)).toList(),
                clusterSet.flows().size());
    }

    private static ClusterSummary summarize(Cluster cluster, Optional<ClusterGlobalnetAllocations> allocated,
                                            Collection<NodeReference> failedNodes) {
        return new ClusterSummary(
                cluster.name(),
                cluster.cni().yamlName(),
                texts(cluster.podCidrs()),
                texts(cluster.serviceCidrs()),
                cluster.globalCidr().map(Ipv4Prefix::toString).orElse(null),
                cluster.multiActiveGateways(),
                gateways(cluster, failedNodes),
                cluster.nodes().size(),
                cluster.pods().size(),
                cluster.services().size(),
                cluster.exports().size(),
                allocated.map(a -> a.globalCidr().toString()).orElse(null),
                allocated.map(a -> a.allocations().stream().map(TopologySummary::allocation).toList()).orElse(List.of()));
    }

    private static AllocationSummary allocation(GlobalIpAllocation allocation) {
        List<String> addresses = allocation.range().map(r -> List.of(r.toString()))
                .orElse(allocation.addresses().stream().map(Object::toString).toList());
        return new AllocationSummary(allocation.requester(), addresses, allocation.condition().reason().upstreamName(),
                allocation.condition().message());
    }

    /**
     * The same rule as {@link Cluster#activeGateways()}, applied to the gateways that survive the
     * failures: with a single active gateway, the next one in file order takes the lease.
     */
    private static List<GatewaySummary> gateways(Cluster cluster, Collection<NodeReference> failedNodes) {
        List<Node> gateways = cluster.gateways();
        List<Node> survivors = gateways.stream()
                .filter(g -> !failedNodes.contains(new NodeReference(cluster.name(), g.name())))
                .toList();
        List<Node> active = cluster.multiActiveGateways() || survivors.isEmpty() ? survivors : List.of(survivors.getFirst());
        return gateways.stream()
                .map(g -> new GatewaySummary(g.name(), g.ip().toString(),
                        !survivors.contains(g) ? GatewayState.FAILED : active.contains(g) ? GatewayState.ACTIVE : GatewayState.STANDBY))
                .toList();
    }

    private static List<String> texts(List<Ipv4Prefix> prefixes) {
        return prefixes.stream().map(Ipv4Prefix::toString).toList();
    }

    /** The summary for a terminal, ending with a newline. */
    public String toText() {
        StringBuilder text = new StringBuilder();
        text.append(name).append(": ").append(count(clusters.size(), "cluster")).append(", Globalnet ");
        if (globalnet.enabled()) {
            text.append("on (global range ").append(globalnet.cidr()).append(", ")
                    .append(globalnet.clusterSize()).append(" addresses per cluster without a globalCIDR)");
        } else {
            text.append("off");
        }
        text.append('\n');
        for (ClusterSummary cluster : clusters) {
            text.append('\n').append(cluster.name()).append("  (").append(cluster.cni())
                    .append(cluster.multiActiveGateways() ? ", multiple active gateways" : "").append(")\n");
            line(text, "pod CIDRs", String.join(", ", cluster.podCidrs()));
            line(text, "service CIDRs", String.join(", ", cluster.serviceCidrs()));
            if (cluster.globalCidr() != null) {
                line(text, "global CIDR", cluster.globalCidr());
            } else if (cluster.assignedGlobalCidr() != null) {
                line(text, "global CIDR", cluster.assignedGlobalCidr() + " (assigned by the broker)");
            } else if (globalnet.enabled()) {
                line(text, "global CIDR", "assigned by the broker from " + globalnet.cidr());
            }
            line(text, "gateways", cluster.gateways().isEmpty() ? "none"
                    : cluster.gateways().stream()
                            .map(g -> g.node() + " " + g.ip() + " (" + g.state().lowerName() + ")")
                            .collect(Collectors.joining(", ")));
            text.append("  ").append(count(cluster.nodes(), "node")).append(", ").append(count(cluster.pods(), "pod"))
                    .append(", ").append(count(cluster.services(), "service")).append(", ")
                    .append(count(cluster.exports(), "export")).append('\n');
            if (!cluster.allocations().isEmpty()) {
                text.append("  global IPs:\n");
                for (AllocationSummary allocation : cluster.allocations()) {
                    text.append("    ").append(String.format(Locale.ROOT, "%-54s ", allocation.object()))
                            .append(allocation.addresses().isEmpty() ? "-" : String.join(", ", allocation.addresses()));
                    if (!"Success".equals(allocation.reason())) {
                        text.append("  (").append(allocation.reason()).append(": ").append(allocation.message()).append(')');
                    }
                    text.append('\n');
                }
            }
        }
        text.append('\n').append(count(flows, "flow")).append('\n');
        return text.toString();
    }

    private static void line(StringBuilder text, String label, String value) {
        text.append("  ").append(String.format(Locale.ROOT, "%-15s", label)).append(value).append('\n');
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
