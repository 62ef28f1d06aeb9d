package io.periscope.model.generate;

import io.periscope.model.globalnet.GlobalEgressIP;
import io.periscope.model.policy.ClusterConnectionPolicy;
import io.periscope.model.policy.ClusterConnectivityPolicy;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.selector.LabelSelectorRequirement;
import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.LinkProperties;
import io.periscope.model.topology.MultipathHashPolicy;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A cluster set written as a topology file, so that a generated set can go through
 * {@code periscope check} like any file, and so that the lab's supervisor plans from the very set
 * {@code lab up} built: every string quoted, one object per line, policies included.
 *
 * <p>{@code main} writes the 10-cluster set of the simulator's benchmarks, or one of the given size:
 * {@code FILE [clusters nodes gateways pods services globalEgressIPs v2|legacy appsPerCluster]}.
 */
public final class TopologyFile {

    private TopologyFile() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1 && args.length != 9) {
            System.err.println("usage: TopologyFile FILE [clusters nodes gateways pods services globalEgressIPs v2|legacy appsPerCluster]");
            System.exit(2);
        }
        SyntheticClusterSet generator = args.length == 1
                ? new SyntheticClusterSet(10, 10, 2, 1000, 10, 2, GlobalnetMode.V2, 250)
                : new SyntheticClusterSet(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]),
                args[7].equals("legacy") ? GlobalnetMode.LEGACY : GlobalnetMode.V2, Integer.parseInt(args[8]));
        Path file = Path.of(args[0]);
        Files.writeString(file, yaml(generator.build()));
        System.out.println("wrote " + file + ": " + generator);
    }

    public static String yaml(ClusterSet set) {
        StringBuilder out = new StringBuilder();
        out.append("name: ").append(q(set.name())).append('\n');
        out.append("globalnet: {enabled: ").append(set.globalnet().enabled()).append(", cidr: ").append(q(set.globalnet().cidr()))
                .append(", clusterSize: ").append(set.globalnet().clusterSize()).append(", mode: ")
                .append(q(set.globalnet().mode().yamlName())).append("}\n");
        out.append("defaults: {cableDriver: ").append(q(set.defaultCableDriver().yamlName())).append("}\n");
        out.append("clusters:\n");
        for (Cluster c : set.clusters()) {
            cluster(out, c);
        }
        if (!set.connectivityPolicies().isEmpty()) {
            out.append("connectivityPolicies:\n");
            for (ClusterConnectivityPolicy p : set.connectivityPolicies()) {
                out.append("  - {name: ").append(q(p.name())).append(", leftClusterSelector: {").append(selectorFields(p.leftClusterSelector()))
                        .append("}, rightClusterSelector: {").append(selectorFields(p.rightClusterSelector())).append("}}\n");
            }
        }
        if (!set.connectionPolicies().isEmpty()) {
            out.append("connectionPolicies:\n");
            for (ClusterConnectionPolicy p : set.connectionPolicies()) {
                out.append("  - {leftClusterSelector: {").append(selectorFields(p.leftClusterSelector()))
                        .append("}, rightClusterSelector: {").append(selectorFields(p.rightClusterSelector()))
                        .append("}, cableDriver: {name: ").append(q(p.cableDriver().name().yamlName())).append(", options: ")
                        .append(labels(p.cableDriver().options())).append("}}\n");
            }
        }
        if (!set.cables().isEmpty()) {
            out.append("cables:\n");
            for (CableLink cable : set.cables()) {
                out.append("  - {between: ").append(list(List.of(cable.left(), cable.right())))
                        .append(cable.properties().isEmpty() ? "" : ", " + linkFields(cable.properties())).append("}\n");
            }
        }
        if (!set.flows().isEmpty()) {
            out.append("flows:\n");
            for (Flow f : set.flows()) {
                out.append("  - {name: ").append(q(f.name())).append(", from: ").append(q(f.from())).append(", to: ").append(q(f.to()))
                        .append(", protocol: ").append(q(f.protocol().lowerName()))
                        .append(f.expect().map(e -> ", expect: " + q(e.yamlName())).orElse(""))
                        .append(f.size().isPresent() ? ", size: " + f.size().getAsInt() : "").append("}\n");
            }
        }
        return out.toString();
    }

    private static void cluster(StringBuilder out, Cluster c) {
        out.append("  - name: ").append(q(c.name())).append('\n');
        out.append("    labels: ").append(labels(c.labels())).append('\n');
        out.append("    podCIDRs: ").append(list(c.podCidrs())).append('\n');
        out.append("    serviceCIDRs: ").append(list(c.serviceCidrs())).append('\n');
        c.globalCidr().ifPresent(g -> out.append("    globalCIDR: ").append(q(g)).append('\n'));
        out.append("    cni: ").append(q(c.cni().yamlName())).append('\n');
        out.append("    multiActiveGateways: ").append(c.multiActiveGateways()).append('\n');
        out.append("    clusterEgressIPs: ").append(c.clusterEgressIPs()).append('\n');
        if (c.multiActiveGateways()) {
            out.append("    gatewayLoadBalancing: ").append(q(c.loadBalancing().yamlName())).append('\n');
            if (c.egressOwnership() != io.periscope.model.topology.EgressOwnership.SHARED) {
                out.append("    egressOwnership: ").append(q(c.egressOwnership().yamlName())).append('\n');
            }
        }
        // Written only when set, so files of clusters with the defaults read as before.
        if (c.environment().rpFilter() != io.periscope.model.topology.RpFilter.OFF) {
            out.append("    rpFilter: ").append(q(c.environment().rpFilter().yamlName())).append('\n');
        }
        if (c.environment().cniMasquerade() != io.periscope.model.topology.CniMasquerade.NONE) {
            out.append("    cniMasquerade: ").append(q(c.environment().cniMasquerade().yamlName())).append('\n');
        }
        if (c.environment().multipathHash() != MultipathHashPolicy.DEFAULT) {
            out.append("    multipathHashPolicy: ").append(q(c.environment().multipathHash().yamlName())).append('\n');
        }
        out.append("    nodes:\n");
        for (Node n : c.nodes()) {
            out.append("      - {name: ").append(q(n.name())).append(", ip: ").append(q(n.ip())).append(", cniIP: ").append(q(n.cniIp()))
                    .append(", gateway: ").append(n.gateway())
                    .append(n.publicIp().map(p -> ", publicIP: " + q(p)).orElse(""))
                    .append(n.link().interfaceName().map(i -> ", interface: " + q(i)).orElse(""))
                    .append(n.link().mtu().isPresent() ? ", mtu: " + n.link().mtu().getAsInt() : "")
                    .append(n.link().uplink().isEmpty() ? "" : ", uplink: {" + linkFields(n.link().uplink()) + "}").append("}\n");
        }
        if (!c.pods().isEmpty()) {
            out.append("    pods:\n");
            for (Pod p : c.pods()) {
                out.append("      - {name: ").append(q(p.name())).append(", namespace: ").append(q(p.namespace())).append(", node: ")
                        .append(q(p.node())).append(", ip: ").append(q(p.ip())).append(", labels: ").append(labels(p.labels()))
                        .append(p.hostNetwork() ? ", hostNetwork: true" : "").append("}\n");
            }
        }
        if (!c.services().isEmpty()) {
            out.append("    services:\n");
            for (Service s : c.services()) {
                out.append("      - {name: ").append(q(s.name())).append(", namespace: ").append(q(s.namespace()))
                        .append(s.clusterIp().map(ip -> ", clusterIP: " + q(ip)).orElse(", headless: true"))
                        .append(", selector: ").append(selector(s.selector())).append(", ports: [")
                        .append(s.ports().stream().map(TopologyFile::port).collect(Collectors.joining(", "))).append("]}\n");
            }
        }
        if (!c.exports().isEmpty()) {
            out.append("    exports: ").append(list(c.exports().stream().map(ServiceExport::toString).toList())).append('\n');
        }
        if (!c.globalEgressIPs().isEmpty()) {
            out.append("    globalEgressIPs:\n");
            for (GlobalEgressIP e : c.globalEgressIPs()) {
                out.append("      - {name: ").append(q(e.name())).append(", namespace: ").append(q(e.namespace()))
                        .append(e.podSelector().map(s -> ", podSelector: {" + selectorFields(s) + "}").orElse(""))
                        .append(", numberOfIPs: ").append(e.numberOfIPs()).append("}\n");
            }
        }
    }

    /**
     * A link's properties in units that read back to the very same figures (the lab's supervisor and
     * {@code lab apply} compare what they read): a rate in the largest unit that divides it, times and
     * loss as exact decimals, e.g. {@code rate: "100mbit", delay: "1.5ms"}.
     */
    static String linkFields(LinkProperties link) {
        List<String> fields = new java.util.ArrayList<>();
        link.rateBitsPerSecond().ifPresent(rate -> fields.add("rate: " + q(exactRate(rate))));
        link.delay().ifPresent(delay -> fields.add("delay: " + q(exactMicros(delay))));
        link.jitter().ifPresent(jitter -> fields.add("jitter: " + q(exactMicros(jitter))));
        link.lossPercent().ifPresent(loss -> fields.add("loss: " + q(java.math.BigDecimal.valueOf(loss).stripTrailingZeros().toPlainString() + "%")));
        link.queuePackets().ifPresent(queue -> fields.add("queue: " + queue));
        return String.join(", ", fields);
    }

    private static String exactRate(long bits) {
        String[] units = {"bit", "kbit", "mbit", "gbit"};
        int unit = 0;
        while (unit < units.length - 1 && bits % 1000 == 0 && bits > 0) {
            bits /= 1000;
            unit++;
        }
        return bits + units[unit];
    }

    private static String exactMicros(java.time.Duration duration) {
        return java.math.BigDecimal.valueOf(duration.toNanos(), 3).stripTrailingZeros().toPlainString() + "us";
    }

    private static String port(ServicePort p) {
        return "{" + p.name().map(n -> "name: " + q(n) + ", ").orElse("") + "port: " + p.port() + ", targetPort: " + p.targetPort()
                + ", protocol: " + q(p.protocol().name()) + "}";
    }

    /** A service's selector is a plain label map in the file. */
    private static String selector(LabelSelector s) {
        if (!s.matchExpressions().isEmpty()) {
            throw new IllegalArgumentException("a service selector is a label map; " + s + " has expressions");
        }
        return labels(s.matchLabels());
    }

    private static String selectorFields(LabelSelector s) {
        String labels = "matchLabels: " + labels(s.matchLabels());
        if (s.matchExpressions().isEmpty()) {
            return labels;
        }
        return labels + ", matchExpressions: [" + s.matchExpressions().stream().map(TopologyFile::expression)
                .collect(Collectors.joining(", ")) + "]";
    }

    private static String expression(LabelSelectorRequirement r) {
        return "{key: " + q(r.key()) + ", operator: " + q(r.operator().yamlName())
                + (r.values().isEmpty() ? "" : ", values: " + list(r.values())) + "}";
    }

    private static String labels(Map<String, String> labels) {
        return new TreeMap<>(labels).entrySet().stream().map(e -> q(e.getKey()) + ": " + q(e.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private static String list(List<?> items) {
        return items.stream().map(TopologyFile::q).collect(Collectors.joining(", ", "[", "]"));
    }

    /** A double-quoted YAML string: a value like {@code 0} or {@code on} stays text. */
    private static String q(Object value) {
        return "\"" + value.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
