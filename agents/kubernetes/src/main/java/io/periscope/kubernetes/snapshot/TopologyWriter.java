package io.periscope.kubernetes.snapshot;

import io.periscope.model.globalnet.GlobalEgressIP;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.ClusterConnectionPolicy;
import io.periscope.model.policy.ClusterConnectivityPolicy;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.selector.LabelSelectorRequirement;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServicePort;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a cluster set as a topology file (the format of docs/topology.md), so that what
 * {@code TopologyLoader} reads back is the same cluster set. Fields equal to the loader's defaults
 * are still written where a reader would want to see them (cni, clusterEgressIPs).
 */
public final class TopologyWriter {

    private TopologyWriter() {
    }

    public static String write(ClusterSet set, String header) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("name", set.name());
        Map<String, Object> globalnet = new LinkedHashMap<>();
        globalnet.put("enabled", set.globalnet().enabled());
        if (set.globalnet().enabled()) {
            globalnet.put("cidr", set.globalnet().cidr().toString());
            globalnet.put("clusterSize", set.globalnet().clusterSize());
            globalnet.put("mode", set.globalnet().mode().yamlName());
        }
        root.put("globalnet", globalnet);
        root.put("defaults", Map.of("cableDriver", set.defaultCableDriver().yamlName()));
        List<Object> clusters = new ArrayList<>();
        set.clusters().forEach(c -> clusters.add(cluster(c)));
        root.put("clusters", clusters);
        if (!set.connectivityPolicies().isEmpty()) {
            List<Object> policies = new ArrayList<>();
            for (ClusterConnectivityPolicy policy : set.connectivityPolicies()) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("name", policy.name());
                p.put("leftClusterSelector", selector(policy.leftClusterSelector()));
                p.put("rightClusterSelector", selector(policy.rightClusterSelector()));
                policies.add(p);
            }
            root.put("connectivityPolicies", policies);
        }
        if (!set.connectionPolicies().isEmpty()) {
            List<Object> policies = new ArrayList<>();
            for (ClusterConnectionPolicy policy : set.connectionPolicies()) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("leftClusterSelector", selector(policy.leftClusterSelector()));
                p.put("rightClusterSelector", selector(policy.rightClusterSelector()));
                Map<String, Object> driver = new LinkedHashMap<>();
                driver.put("name", policy.cableDriver().name().yamlName());
                if (!policy.cableDriver().options().isEmpty()) {
                    driver.put("options", new TreeMap<>(policy.cableDriver().options()));
                }
                p.put("cableDriver", driver);
                policies.add(p);
            }
            root.put("connectionPolicies", policies);
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setIndicatorIndent(2);
        options.setIndentWithIndicator(true);
        options.setWidth(140);
        StringBuilder text = new StringBuilder();
        header.lines().forEach(line -> text.append("# ").append(line).append('\n'));
        return text.append(new Yaml(options).dump(root)).toString();
    }

    private static Map<String, Object> cluster(Cluster cluster) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", cluster.name());
        c.put("labels", new TreeMap<>(cluster.labels()));
        c.put("podCIDRs", cluster.podCidrs().stream().map(Ipv4Prefix::toString).toList());
        c.put("serviceCIDRs", cluster.serviceCidrs().stream().map(Ipv4Prefix::toString).toList());
        cluster.globalCidr().ifPresent(g -> c.put("globalCIDR", g.toString()));
        c.put("cni", cluster.cni().yamlName());
        c.put("multiActiveGateways", cluster.multiActiveGateways());
        c.put("clusterEgressIPs", cluster.clusterEgressIPs());
        if (cluster.multiActiveGateways()) {
            // The loader refuses it on a cluster with one active gateway, where it would mean nothing.
            c.put("gatewayLoadBalancing", cluster.loadBalancing().yamlName());
        }
        List<Object> nodes = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("name", node.name());
            n.put("ip", node.ip().toString());
            n.put("cniIP", node.cniIp().toString());
            if (node.gateway()) {
                n.put("gateway", true);
            }
            node.publicIp().ifPresent(p -> n.put("publicIP", p.toString()));
            node.link().interfaceName().ifPresent(i -> n.put("interface", i));
            node.link().mtu().ifPresent(m -> n.put("mtu", m));
            node.tcpClampMss().ifPresent(mss -> n.put("tcpClampMss", mss));
            nodes.add(n);
        }
        c.put("nodes", nodes);
        List<Object> pods = new ArrayList<>();
        for (Pod pod : cluster.pods()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("name", pod.name());
            p.put("namespace", pod.namespace());
            p.put("node", pod.node());
            p.put("ip", pod.ip().toString());
            p.put("labels", new TreeMap<>(pod.labels()));
            if (pod.hostNetwork()) {
                p.put("hostNetwork", true);
            }
            pods.add(p);
        }
        c.put("pods", pods);
        List<Object> services = new ArrayList<>();
        for (Service service : cluster.services()) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", service.name());
            s.put("namespace", service.namespace());
            service.clusterIp().ifPresentOrElse(ip -> s.put("clusterIP", ip.toString()), () -> s.put("headless", true));
            s.put("selector", new TreeMap<>(service.selector().matchLabels()));
            List<Object> ports = new ArrayList<>();
            for (ServicePort port : service.ports()) {
                Map<String, Object> p = new LinkedHashMap<>();
                port.name().ifPresent(n -> p.put("name", n));
                p.put("port", port.port());
                p.put("targetPort", port.targetPort());
                p.put("protocol", port.protocol().name());
                ports.add(p);
            }
            s.put("ports", ports);
            services.add(s);
        }
        c.put("services", services);
        c.put("exports", cluster.exports().stream().map(Object::toString).toList());
        List<Object> egress = new ArrayList<>();
        for (GlobalEgressIP object : cluster.globalEgressIPs()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("name", object.name());
            e.put("namespace", object.namespace());
            object.podSelector().ifPresent(s -> e.put("podSelector", selector(s)));
            e.put("numberOfIPs", object.numberOfIPs());
            egress.add(e);
        }
        c.put("globalEgressIPs", egress);
        return c;
    }

    private static Map<String, Object> selector(LabelSelector selector) {
        Map<String, Object> s = new LinkedHashMap<>();
        if (!selector.matchLabels().isEmpty()) {
            s.put("matchLabels", new TreeMap<>(selector.matchLabels()));
        }
        if (!selector.matchExpressions().isEmpty()) {
            List<Object> expressions = new ArrayList<>();
            for (LabelSelectorRequirement requirement : selector.matchExpressions()) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("key", requirement.key());
                r.put("operator", requirement.operator().yamlName());
                if (!requirement.values().isEmpty()) {
                    r.put("values", requirement.values());
                }
                expressions.add(r);
            }
            s.put("matchExpressions", expressions);
        }
        return s;
    }
}
