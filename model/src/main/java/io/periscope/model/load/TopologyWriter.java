package io.periscope.model.load;

import io.periscope.model.selector.LabelSelector;
import io.periscope.model.selector.LabelSelectorRequirement;
import io.periscope.model.topology.Behaviour;
import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterConnectivityPolicy;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.CniMasquerade;
import io.periscope.model.topology.EgressOwnership;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.LinkProperties;
import io.periscope.model.topology.MultipathHashPolicy;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.RpFilter;
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
 * A cluster set written as a topology file (docs/topology.md), the one way Periscope writes one: what
 * {@link TopologyLoader} reads back is the same cluster set, field for field. {@code lab up} writes
 * the file its supervisor plans from with it, {@code periscope snapshot} the file of a live cluster
 * set, and the generators their synthetic sets.
 *
 * <p>Settings the loader defaults are written only where they differ from the default, except those a
 * reader wants to see (cni, multiActiveGateways, clusterEgressIPs, the globalnet block), so a file of
 * a cluster set with the defaults reads as the examples do.
 */
public final class TopologyWriter {

    private TopologyWriter() {
    }

    public static String write(ClusterSet set) {
        return write(set, "");
    }

    /** The file, after {@code header} as comment lines (none when it is empty). */
    public static String write(ClusterSet set, String header) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("name", set.name());
        if (set.behaviour() != Behaviour.SEEDS) {
            root.put("behaviour", set.behaviour().yamlName());
        }
        Map<String, Object> globalnet = new LinkedHashMap<>();
        globalnet.put("enabled", set.globalnet().enabled());
        globalnet.put("cidr", set.globalnet().cidr().toString());
        globalnet.put("clusterSize", set.globalnet().clusterSize());
        globalnet.put("mode", set.globalnet().mode().yamlName());
        root.put("globalnet", globalnet);
        root.put("defaults", Map.of("cableDriver", set.defaultCableDriver().yamlName()));
        root.put("clusters", set.clusters().stream().map(TopologyWriter::cluster).toList());
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
        if (!set.cables().isEmpty()) {
            List<Object> cables = new ArrayList<>();
            for (CableLink cable : set.cables()) {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("between", List.of(cable.left(), cable.right()));
                c.putAll(link(cable.properties()));
                cables.add(c);
            }
            root.put("cables", cables);
        }
        if (!set.flows().isEmpty()) {
            List<Object> flows = new ArrayList<>();
            for (Flow flow : set.flows()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("name", flow.name());
                f.put("from", flow.from().toString());
                f.put("to", flow.to().toString());
                f.put("protocol", flow.protocol().lowerName());
                flow.expect().ifPresent(e -> f.put("expect", e.yamlName()));
                flow.size().ifPresent(size -> f.put("size", size));
                flows.add(f);
            }
            root.put("flows", flows);
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
        c.put("podCIDRs", cluster.podCidrs().stream().map(Object::toString).toList());
        c.put("serviceCIDRs", cluster.serviceCidrs().stream().map(Object::toString).toList());
        cluster.globalCidr().ifPresent(g -> c.put("globalCIDR", g.toString()));
        c.put("cni", cluster.cni().yamlName());
        c.put("multiActiveGateways", cluster.multiActiveGateways());
        c.put("clusterEgressIPs", cluster.clusterEgressIPs());
        if (cluster.multiActiveGateways()) {
            // The loader refuses both on a cluster with one active gateway, where they would mean nothing.
            c.put("gatewayLoadBalancing", cluster.loadBalancing().yamlName());
            if (cluster.egressOwnership() != EgressOwnership.SHARED) {
                c.put("egressOwnership", cluster.egressOwnership().yamlName());
            }
        }
        if (cluster.environment().rpFilter() != RpFilter.OFF) {
            c.put("rpFilter", cluster.environment().rpFilter().yamlName());
        }
        if (cluster.environment().cniMasquerade() != CniMasquerade.NONE) {
            c.put("cniMasquerade", cluster.environment().cniMasquerade().yamlName());
        }
        if (cluster.environment().multipathHash() != MultipathHashPolicy.DEFAULT) {
            c.put("multipathHashPolicy", cluster.environment().multipathHash().yamlName());
        }
        c.put("nodes", cluster.nodes().stream().map(TopologyWriter::node).toList());
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
            if (!service.selector().matchExpressions().isEmpty()) {
                throw new IllegalArgumentException("service " + service.name() + "'s selector has expressions; a Service's is a label map");
            }
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

    private static Map<String, Object> node(Node node) {
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
        if (!node.link().uplink().isEmpty()) {
            n.put("uplink", link(node.link().uplink()));
        }
        return n;
    }

    /** A link's properties in the units the loader reads back exactly. */
    private static Map<String, Object> link(LinkProperties properties) {
        Map<String, Object> l = new LinkedHashMap<>();
        properties.rateBitsPerSecond().ifPresent(rate -> l.put("rate", LinkProperties.rateText(rate)));
        properties.delay().ifPresent(delay -> l.put("delay", LinkProperties.durationText(delay)));
        properties.jitter().ifPresent(jitter -> l.put("jitter", LinkProperties.durationText(jitter)));
        properties.lossPercent().ifPresent(loss -> l.put("loss", LinkProperties.lossText(loss)));
        properties.queuePackets().ifPresent(queue -> l.put("queue", queue));
        return l;
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
