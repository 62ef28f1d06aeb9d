package io.periscope.model.load;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.selector.LabelSelectorRequirement;
import io.periscope.model.selector.SelectorOperator;
import io.periscope.model.topology.Behaviour;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterConnectivityPolicy;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.CniMasquerade;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.EgressOwnership;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.LinkProperties;
import io.periscope.model.topology.MultipathHashPolicy;
import io.periscope.model.topology.NodeEnvironment;
import io.periscope.model.topology.NodeLink;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.RpFilter;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Maps a topology file's YAML nodes onto the model's records: field names, types, required fields,
 * defaults, and the shape of each value (an address, a CIDR, a flow's {@code from}). Mistakes are
 * reported where they are written and reading goes on. An entry with a mistake inside (a node, a pod,
 * a flow...) is left out of the records and noted in {@link IncompleteParts}; a cluster is kept as long
 * as it has a name, so that the semantic checks still cover the rest of it.
 *
 * <p>Rules that relate several values (overlaps, references, duplicates, ranges) are
 * {@link TopologyValidator}'s, which works on the records.
 */
final class TopologyReader {

    static final List<String> TOPOLOGY_FIELDS =
            List.of("name", "globalnet", "defaults", "clusters", "connectivityPolicies", "connectionPolicies", "cables", "flows", "behaviour");
    static final List<String> GLOBALNET_FIELDS = List.of("enabled", "cidr", "clusterSize", "mode");
    static final List<String> DEFAULTS_FIELDS = List.of("cableDriver");
    static final List<String> CLUSTER_FIELDS = List.of("name", "labels", "podCIDRs", "serviceCIDRs", "globalCIDR", "cni",
            "multiActiveGateways", "clusterEgressIPs", "gatewayLoadBalancing", "egressOwnership", "nodes", "pods", "services", "exports",
            "globalEgressIPs", "rpFilter", "cniMasquerade", "multipathHashPolicy");
    static final List<String> NODE_FIELDS = List.of("name", "ip", "cniIP", "gateway", "publicIP", "interface", "mtu", "tcpClampMss", "uplink");
    static final List<String> CABLE_FIELDS = java.util.stream.Stream.concat(java.util.stream.Stream.of("between"),
            LinkPropertiesReader.FIELDS.stream()).toList();
    static final List<String> POD_FIELDS = List.of("name", "namespace", "node", "ip", "labels", "hostNetwork");
    static final List<String> SERVICE_FIELDS = List.of("name", "namespace", "clusterIP", "headless", "selector", "ports");
    static final List<String> PORT_FIELDS = List.of("name", "port", "targetPort", "protocol");
    static final List<String> EGRESS_FIELDS = List.of("name", "namespace", "podSelector", "numberOfIPs");
    static final List<String> SELECTOR_FIELDS = List.of("matchLabels", "matchExpressions");
    static final List<String> EXPRESSION_FIELDS = List.of("key", "operator", "values");
    static final List<String> CONNECTIVITY_FIELDS = List.of("name", "leftClusterSelector", "rightClusterSelector");
    static final List<String> CONNECTION_FIELDS = List.of("leftClusterSelector", "rightClusterSelector", "cableDriver");
    static final List<String> CABLE_DRIVER_FIELDS = List.of("name", "options");
    static final List<String> FLOW_FIELDS = List.of("name", "from", "to", "protocol", "expect", "size");

    static final String DEFAULT_NAMESPACE = "default";

    private final YamlNodeReader yaml;
    private final LinkPropertiesReader links;
    private final IncompleteParts incomplete = new IncompleteParts();

    TopologyReader(String file) {
        this.yaml = new YamlNodeReader(file);
        this.links = new LinkPropertiesReader(yaml);
    }

    /** @param defaultName the topology's name when the file gives none (the file's base name) */
    MappedTopology read(Node root, String defaultName) {
        Optional<ClusterSet> clusterSet = yaml.mapping(root, "", "the topology", TOPOLOGY_FIELDS)
                .map(top -> readClusterSet(top, defaultName));
        return new MappedTopology(clusterSet, yaml.positions(), incomplete, yaml.errors());
    }

    private ClusterSet readClusterSet(YamlMapping top, String defaultName) {
        String name = yaml.optionalText(top, "name").orElse(defaultName);
        GlobalnetConfig globalnet = GlobalnetConfig.DISABLED;
        if (top.value("globalnet").isPresent()) {
            Optional<YamlMapping> read = yaml.mapping(top.value("globalnet").get(), "globalnet", "globalnet", GLOBALNET_FIELDS);
            if (read.isPresent()) {
                globalnet = readGlobalnet(read.get());
            } else {
                incomplete.globalnet();
            }
        }
        CableDriver defaultDriver = top.value("defaults")
                .flatMap(node -> yaml.mapping(node, "defaults", "defaults", DEFAULTS_FIELDS))
                .flatMap(defaults -> yaml.optionalChoice(defaults, "cableDriver", CableDriver.values(), CableDriver::yamlName, false))
                .orElse(CableDriver.LIBRESWAN);

        List<Cluster> clusters = new ArrayList<>();
        Optional<Node> clustersNode =
                yaml.required(top, "clusters", "the list of clusters, each with name, podCIDRs, serviceCIDRs and nodes");
        if (clustersNode.isPresent()) {
            List<Node> entries = yaml.sequence(clustersNode.get(), "clusters", "clusters").orElse(List.of());
            if (entries.isEmpty() && clustersNode.get() instanceof SequenceNode) {
                yaml.error(clustersNode.get(), "clusters", "the topology has no clusters", "add at least one cluster under 'clusters:'");
            }
            clusters = readEntries(entries, "clusters", this::readCluster);
        }
        List<ClusterConnectivityPolicy> connectivity = readEntries(
                yaml.list(top, "connectivityPolicies", "connectivityPolicies"), "connectivityPolicies", this::readConnectivityPolicy);
        List<ClusterConnectionPolicy> connection = readEntries(
                yaml.list(top, "connectionPolicies", "connectionPolicies"), "connectionPolicies", this::readConnectionPolicy);
        List<Flow> flows = readEntries(yaml.list(top, "flows", "flows"), "flows", this::readFlow);
        List<CableLink> cables = readEntries(yaml.list(top, "cables", "cables"), "cables", this::readCable);
        Behaviour behaviour = yaml.optionalChoice(top, "behaviour", Behaviour.values(), Behaviour::yamlName, false).orElse(Behaviour.SEEDS);
        return new ClusterSet(name, globalnet, defaultDriver, clusters, connectivity, connection, flows, cables, behaviour);
    }

    /** Reads each entry of a list, keeping those that could be built and noting which file entries they were. */
    private <T> List<T> readEntries(List<Node> entries, String listPath, EntryReader<T> reader) {
        List<T> built = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String path = listPath + "[" + i + "]";
            Node entry = entries.get(i);
            if (YamlMapping.isNull(entry)) {
                yaml.error(entry, path, "empty entry in " + listPath, "fill in the entry or remove its '-'");
                continue;
            }
            Optional<T> value = reader.read(entry, path);
            if (value.isPresent()) {
                built.add(value.get());
                kept.add(i);
            }
        }
        yaml.keptEntries(listPath, kept, entries.size());
        return built;
    }

    @FunctionalInterface
    private interface EntryReader<T> {
        Optional<T> read(Node node, String path);
    }

    private GlobalnetConfig readGlobalnet(YamlMapping globalnet) {
        int before = yaml.errorCount();
        boolean enabled = yaml.optionalBool(globalnet, "enabled").orElse(false);
        Ipv4Prefix cidr = yaml.optionalGlobalPrefix(globalnet, "cidr").orElse(GlobalnetConfig.DEFAULT_CIDR);
        int clusterSize = yaml.optionalInt(globalnet, "clusterSize").orElse(GlobalnetConfig.DEFAULT_CLUSTER_SIZE);
        GlobalnetMode mode = yaml.optionalChoice(globalnet, "mode", GlobalnetMode.values(), GlobalnetMode::yamlName, false)
                .orElse(GlobalnetMode.V2);
        if (yaml.errorCount() != before) {
            incomplete.globalnet();
        }
        return new GlobalnetConfig(enabled, cidr, clusterSize, mode);
    }

    // ---- clusters ----

    private Optional<Cluster> readCluster(Node node, String path) {
        Optional<YamlMapping> read = yaml.mapping(node, path, "a cluster", CLUSTER_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping cluster = read.get();
        Optional<String> name = yaml.requiredText(cluster, "name", "the cluster id, a DNS label such as cluster1");
        // A cluster without a name cannot be referred to; its parts are still read for their own mistakes.
        String key = name.orElse(path);
        Map<String, String> labels = labels(cluster, "labels", "{location: on-premise}");
        List<Ipv4Prefix> podCidrs = cidrList(cluster, "podCIDRs", "the cluster's pod network, e.g. [10.244.0.0/16]",
                () -> incomplete.podCidrs(key));
        List<Ipv4Prefix> serviceCidrs = cidrList(cluster, "serviceCIDRs", "the cluster's service network, e.g. [10.96.0.0/16]",
                () -> incomplete.serviceCidrs(key));
        Optional<Ipv4Prefix> globalCidr = yaml.optionalGlobalPrefix(cluster, "globalCIDR");
        Cni cni = yaml.optionalChoice(cluster, "cni", Cni.values(), Cni::yamlName, false).orElse(Cni.KUBE_PROXY);
        boolean multiActive = yaml.optionalBool(cluster, "multiActiveGateways").orElse(false);
        int clusterEgressIPs = yaml.optionalInt(cluster, "clusterEgressIPs").orElse(Cluster.DEFAULT_CLUSTER_EGRESS_IPS);
        GatewayLoadBalancing loadBalancing = yaml.optionalChoice(cluster, "gatewayLoadBalancing",
                GatewayLoadBalancing.values(), GatewayLoadBalancing::yamlName, false).orElse(GatewayLoadBalancing.MULTIPATH_ROUTES);
        EgressOwnership egressOwnership = yaml.optionalChoice(cluster, "egressOwnership", EgressOwnership.values(),
                EgressOwnership::yamlName, false).orElse(EgressOwnership.SHARED);
        NodeEnvironment environment = new NodeEnvironment(
                yaml.optionalChoice(cluster, "rpFilter", RpFilter.values(), RpFilter::yamlName, false).orElse(RpFilter.OFF),
                yaml.optionalChoice(cluster, "cniMasquerade", CniMasquerade.values(), CniMasquerade::yamlName, false)
                        .orElse(CniMasquerade.NONE),
                yaml.optionalChoice(cluster, "multipathHashPolicy", MultipathHashPolicy.values(), MultipathHashPolicy::yamlName, false)
                        .orElse(MultipathHashPolicy.DEFAULT));

        List<io.periscope.model.topology.Node> nodes = readEntries(yaml.list(cluster, "nodes", "nodes"), cluster.path("nodes"), (n, p) -> readNode(n, p, key));
        Map<String, io.periscope.model.topology.Node> nodesByName = new HashMap<>();
        nodes.forEach(n -> nodesByName.putIfAbsent(n.name(), n));
        List<Pod> pods = readEntries(yaml.list(cluster, "pods", "pods"), cluster.path("pods"), (n, p) -> readPod(n, p, key, nodesByName));
        List<Service> services = readEntries(yaml.list(cluster, "services", "services"), cluster.path("services"),
                (n, p) -> readService(n, p, key));
        List<ServiceExport> exports = readEntries(yaml.list(cluster, "exports", "exports"), cluster.path("exports"), this::readExport);
        List<GlobalEgressIP> egressIPs = readEntries(yaml.list(cluster, "globalEgressIPs", "globalEgressIPs"),
                cluster.path("globalEgressIPs"), this::readGlobalEgressIP);
        return name.map(n -> new Cluster(n, labels, podCidrs, serviceCidrs, globalCidr, cni, multiActive, clusterEgressIPs,
                loadBalancing, nodes, pods, services, exports, egressIPs, environment, egressOwnership));
    }

    /** A required, non-empty list of CIDRs; malformed entries are reported and left out. */
    private List<Ipv4Prefix> cidrList(YamlMapping mapping, String field, String hint, Runnable markIncomplete) {
        Optional<Node> value = yaml.required(mapping, field, hint);
        if (value.isEmpty()) {
            markIncomplete.run();
            return List.of();
        }
        String path = mapping.path(field);
        Optional<List<Node>> entries = yaml.sequence(value.get(), path, field);
        if (entries.isEmpty()) {
            markIncomplete.run();
            return List.of();
        }
        if (entries.get().isEmpty()) {
            yaml.error(value.get(), path, field + " is empty", "list at least one CIDR: " + hint);
            markIncomplete.run();
            return List.of();
        }
        List<Ipv4Prefix> prefixes = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < entries.get().size(); i++) {
            Optional<Ipv4Prefix> prefix = yaml.prefix(entries.get().get(i), path + "[" + i + "]");
            if (prefix.isPresent()) {
                prefixes.add(prefix.get());
                kept.add(i);
            }
        }
        if (kept.size() != entries.get().size()) {
            markIncomplete.run();
        }
        yaml.keptEntries(path, kept, entries.get().size());
        return prefixes;
    }

    private Map<String, String> labels(YamlMapping mapping, String field, String example) {
        return mapping.value(field)
                .flatMap(node -> yaml.stringMap(node, mapping.path(field), field, example))
                .orElse(Map.of());
    }

    private Optional<io.periscope.model.topology.Node> readNode(Node node, String path, String cluster) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a node", NODE_FIELDS);
        Optional<String> name = read.flatMap(m -> yaml.requiredText(m, "name", "the node's name, e.g. worker-1"));
        Optional<Ipv4Address> ip = read.flatMap(m -> yaml.requiredAddress(m, "ip", "the node's own address, e.g. 172.18.0.4"));
        Optional<Ipv4Address> cniIp = read.flatMap(m -> yaml.requiredAddress(m, "cniIP",
                "the node's address on the pod network, e.g. 10.244.1.1"));
        boolean gateway = read.flatMap(m -> yaml.optionalBool(m, "gateway")).orElse(false);
        Optional<Ipv4Address> publicIp = read.flatMap(m -> yaml.optionalAddress(m, "publicIP"));
        Optional<String> interfaceName = read.flatMap(m -> yaml.optionalText(m, "interface"));
        Optional<Integer> mtu = read.flatMap(m -> yaml.optionalInt(m, "mtu"));
        Optional<Integer> tcpClampMss = read.flatMap(m -> yaml.optionalInt(m, "tcpClampMss"));
        LinkProperties uplink = read.flatMap(m -> m.value("uplink").flatMap(u -> yaml.mapping(u, m.path("uplink"), "an uplink",
                LinkPropertiesReader.FIELDS)).map(u -> links.read(u, "the uplink of node '" + name.orElse("?") + "'")))
                .orElse(LinkProperties.NONE);
        if (yaml.errorCount() != before) {
            incomplete.someNode(cluster);
            name.ifPresent(n -> incomplete.node(cluster, n));
            return Optional.empty();
        }
        NodeLink link = new NodeLink(interfaceName, mtu.map(java.util.OptionalInt::of).orElse(java.util.OptionalInt.empty()), uplink);
        return Optional.of(new io.periscope.model.topology.Node(name.orElseThrow(), ip.orElseThrow(), cniIp.orElseThrow(), gateway, publicIp,
                link, tcpClampMss.map(OptionalInt::of).orElse(OptionalInt.empty())));
    }

    /** A {@code cables} entry: {@code between} two cluster names, and what the WAN path between their gateways does. */
    private Optional<CableLink> readCable(Node node, String path) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a cable", CABLE_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping cable = read.get();
        List<String> between = new ArrayList<>();
        Optional<Node> betweenNode = yaml.required(cable, "between", "the two clusters it joins, e.g. [cluster1, cluster2]");
        if (betweenNode.isPresent()) {
            List<Node> names = yaml.sequence(betweenNode.get(), cable.path("between"), "between").orElse(List.of());
            for (int i = 0; i < names.size(); i++) {
                yaml.text(names.get(i), cable.path("between") + "[" + i + "]").ifPresent(between::add);
            }
            if (yaml.errorCount() == before && between.size() != 2) {
                yaml.error(betweenNode.get(), cable.path("between"), "a cable joins two clusters; between lists " + between.size(),
                        "name the two clusters, e.g. between: [cluster1, cluster2]");
            }
        }
        String what = between.size() == 2 ? "the cable between " + between.get(0) + " and " + between.get(1) : "a cable";
        LinkProperties properties = links.read(cable, what);
        if (yaml.errorCount() != before) {
            return Optional.empty();
        }
        return Optional.of(new CableLink(between.get(0), between.get(1), properties));
    }

    private Optional<Pod> readPod(Node node, String path, String cluster, Map<String, io.periscope.model.topology.Node> nodes) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a pod", POD_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping pod = read.get();
        Optional<String> name = yaml.requiredText(pod, "name", "the pod's name, e.g. client");
        String namespace = yaml.optionalText(pod, "namespace").orElse(DEFAULT_NAMESPACE);
        Optional<String> nodeName = yaml.requiredText(pod, "node", "the name of the node the pod runs on");
        Map<String, String> labels = labels(pod, "labels", "{app: web}");
        Optional<Boolean> hostNetwork = yaml.optionalBool(pod, "hostNetwork");
        boolean hostNetworkUnreadable = pod.value("hostNetwork").isPresent() && hostNetwork.isEmpty();
        Optional<Ipv4Address> ip = Optional.empty();
        if (pod.value("ip").isPresent()) {
            ip = yaml.optionalAddress(pod, "ip");
        } else if (hostNetwork.orElse(false)) {
            ip = nodeName.map(nodes::get).map(io.periscope.model.topology.Node::ip);
            if (ip.isEmpty() && nodeName.isPresent() && !incomplete.hasNode(cluster, nodeName.get())) {
                yaml.error(pod.fields().get("node"), pod.path("node"), "host-network pod '" + name.orElse("")
                                + "' has no ip and its node '" + nodeName.get() + "' is not a node of cluster '" + cluster
                                + "', so there is no address to give it",
                        "name one of the cluster's nodes, or give the pod an ip");
            }
        } else if (!hostNetworkUnreadable) {
            yaml.required(pod, "ip", "the pod's address inside the cluster's podCIDRs (or hostNetwork: true to use its node's)");
        }
        if (yaml.errorCount() != before || ip.isEmpty()) {
            name.ifPresent(n -> incomplete.pod(cluster, namespace, n));
            return Optional.empty();
        }
        return Optional.of(new Pod(name.orElseThrow(), namespace, nodeName.orElseThrow(), ip.get(), labels, hostNetwork.orElse(false)));
    }

    private Optional<Service> readService(Node node, String path, String cluster) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a service", SERVICE_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping service = read.get();
        Optional<String> name = yaml.requiredText(service, "name", "the service's name, e.g. nginx");
        String namespace = yaml.optionalText(service, "namespace").orElse(DEFAULT_NAMESPACE);
        Optional<Boolean> headlessRead = yaml.optionalBool(service, "headless");
        boolean headless = headlessRead.orElse(false);
        boolean headlessUnreadable = service.value("headless").isPresent() && headlessRead.isEmpty();
        // Kubernetes spells a headless service "clusterIP: None"; accept that spelling too.
        boolean clusterIpNone = service.value("clusterIP")
                .filter(n -> n instanceof ScalarNode s && s.getValue().equals("None")).isPresent();
        Optional<Ipv4Address> clusterIp = clusterIpNone ? Optional.empty() : yaml.optionalAddress(service, "clusterIP");
        String shownName = name.orElse("");
        if (headless && clusterIp.isPresent()) {
            yaml.error(service.fields().get("clusterIP"), service.path("clusterIP"), "headless service '" + shownName
                    + "' has clusterIP " + clusterIp.get() + "; a headless service has none", "remove clusterIP, or remove headless: true");
        } else if (!headless && !headlessUnreadable && !clusterIpNone && service.value("clusterIP").isEmpty()) {
            Node at = service.written("clusterIP") ? service.fields().get("clusterIP") : service.node();
            yaml.error(at, service.path("clusterIP"), "service '" + shownName + "' has no clusterIP",
                    "add 'clusterIP: ...' with an address inside the cluster's serviceCIDRs, or 'headless: true' for a headless service");
        }
        Optional<LabelSelector> selector = yaml.required(service, "selector", "the labels of the pods it sends to, e.g. {app: nginx}")
                .flatMap(n -> serviceSelector(n, service.path("selector")));
        List<ServicePort> ports = new ArrayList<>();
        Optional<Node> portsNode = yaml.required(service, "ports", "e.g. [{port: 80, targetPort: 8080}]");
        if (portsNode.isPresent()) {
            List<Node> entries = yaml.sequence(portsNode.get(), service.path("ports"), "ports").orElse(List.of());
            if (entries.isEmpty() && portsNode.get() instanceof SequenceNode) {
                yaml.error(portsNode.get(), service.path("ports"), "service '" + shownName + "' has no ports",
                        "list at least one, e.g. [{port: 80, targetPort: 8080}]");
            }
            ports = readEntries(entries, service.path("ports"), this::readServicePort);
        }
        if (yaml.errorCount() != before) {
            name.ifPresent(n -> incomplete.service(cluster, namespace, n));
            return Optional.empty();
        }
        return Optional.of(new Service(name.orElseThrow(), namespace, clusterIp, selector.orElseThrow(), ports));
    }

    /** A Service's selector is a plain label map in Kubernetes; the matchLabels form is a common slip. */
    private Optional<LabelSelector> serviceSelector(Node node, String path) {
        if (hasAnyKey(node, SELECTOR_FIELDS)) {
            yaml.error(node, path, "a service's selector is a plain map of labels; matchLabels and matchExpressions are not allowed here",
                    "write the labels themselves, e.g. selector: {app: nginx}");
            return Optional.empty();
        }
        return yaml.stringMap(node, path, "selector", "{app: nginx}").map(LabelSelector::ofLabels);
    }

    private Optional<ServicePort> readServicePort(Node node, String path) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a service port", PORT_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping port = read.get();
        Optional<Integer> number = yaml.requiredInt(port, "port", "the port clients connect to, e.g. 80");
        Optional<Integer> target = yaml.optionalInt(port, "targetPort");
        Optional<String> portName = port.written("name") ? yaml.text(port.fields().get("name"), port.path("name")) : Optional.empty();
        Protocol protocol = yaml.optionalChoice(port, "protocol", new Protocol[] {Protocol.TCP, Protocol.UDP}, Protocol::name, true)
                .orElse(Protocol.TCP);
        if (yaml.errorCount() != before) {
            return Optional.empty();
        }
        return Optional.of(new ServicePort(number.orElseThrow(), target.orElse(number.get()), protocol, portName));
    }

    private Optional<ServiceExport> readExport(Node node, String path) {
        Optional<String> text = yaml.text(node, path);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String[] parts = text.get().trim().split("/", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            String fix = parts.length == 1 && KubernetesNames.isDnsLabel(parts[0])
                    ? "write namespace/name, e.g. " + DEFAULT_NAMESPACE + "/" + parts[0]
                    : "write namespace/name of a service of this cluster, e.g. default/nginx";
            yaml.error(node, path, "export '" + text.get() + "' is not namespace/name", fix);
            return Optional.empty();
        }
        return Optional.of(new ServiceExport(parts[0], parts[1]));
    }

    private Optional<GlobalEgressIP> readGlobalEgressIP(Node node, String path) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a GlobalEgressIP", EGRESS_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping egress = read.get();
        Optional<String> name = yaml.requiredText(egress, "name", "the GlobalEgressIP's name, e.g. db-pods");
        String namespace = yaml.optionalText(egress, "namespace").orElse(DEFAULT_NAMESPACE);
        Optional<LabelSelector> podSelector = egress.value("podSelector")
                .flatMap(n -> fullSelector(n, egress.path("podSelector"), "podSelector"));
        int numberOfIPs = yaml.optionalInt(egress, "numberOfIPs").orElse(GlobalEgressIP.DEFAULT_IPS);
        if (yaml.errorCount() != before) {
            return Optional.empty();
        }
        return Optional.of(new GlobalEgressIP(name.orElseThrow(), namespace, podSelector, numberOfIPs));
    }

    // ---- selectors ----

    /** A Kubernetes label selector: {@code matchLabels} and {@code matchExpressions}. */
    private Optional<LabelSelector> fullSelector(Node node, String path, String what) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, what, SELECTOR_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping selector = read.get();
        Map<String, String> matchLabels = labels(selector, "matchLabels", "{app: web}");
        List<LabelSelectorRequirement> expressions = readEntries(yaml.list(selector, "matchExpressions", "matchExpressions"),
                selector.path("matchExpressions"), this::readRequirement);
        if (yaml.errorCount() != before) {
            return Optional.empty();
        }
        return Optional.of(new LabelSelector(matchLabels, expressions));
    }

    private Optional<LabelSelectorRequirement> readRequirement(Node node, String path) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a matchExpressions entry", EXPRESSION_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping expression = read.get();
        Optional<String> key = yaml.requiredText(expression, "key", "the label key to test");
        Optional<SelectorOperator> operator = yaml.required(expression, "operator", "In, NotIn, Exists or DoesNotExist")
                .flatMap(n -> yaml.choice(n, expression.path("operator"), "operator", SelectorOperator.values(),
                        SelectorOperator::yamlName, false));
        List<String> values = new ArrayList<>();
        for (Node valueNode : yaml.list(expression, "values", "values")) {
            yaml.text(valueNode, expression.path("values")).ifPresent(values::add);
        }
        if (operator.isPresent()) {
            switch (operator.get()) {
                case IN, NOT_IN -> {
                    if (values.isEmpty() && yaml.errorCount() == before) {
                        Node at = expression.written("values") ? expression.fields().get("values") : expression.node();
                        yaml.error(at, expression.path("values"), "operator " + operator.get().yamlName()
                                + " needs at least one value", "add values: [a, b]");
                    }
                }
                case EXISTS, DOES_NOT_EXIST -> {
                    if (!values.isEmpty()) {
                        yaml.error(expression.fields().get("values"), expression.path("values"), "operator "
                                + operator.get().yamlName() + " takes no values, found " + values, "remove values, or use In / NotIn");
                    }
                }
            }
        }
        if (yaml.errorCount() != before) {
            return Optional.empty();
        }
        return Optional.of(new LabelSelectorRequirement(key.orElseThrow(), operator.orElseThrow(), values));
    }

    /**
     * A policy's cluster selector, in either form: a full label selector, or seed 001's short form that
     * lists the labels directly ({@code leftClusterSelector: {location: on-premise}}). Absent or empty
     * matches every cluster.
     */
    private Optional<LabelSelector> clusterSelector(YamlMapping mapping, String field) {
        Optional<Node> value = mapping.value(field);
        if (value.isEmpty()) {
            return Optional.of(LabelSelector.EVERYTHING);
        }
        if (hasAnyKey(value.get(), SELECTOR_FIELDS)) {
            return fullSelector(value.get(), mapping.path(field), field);
        }
        return yaml.stringMap(value.get(), mapping.path(field), field, "{location: on-premise}, or {matchLabels: {...}}")
                .map(LabelSelector::ofLabels);
    }

    private static boolean hasAnyKey(Node node, List<String> keys) {
        if (!(node instanceof MappingNode mapping)) {
            return false;
        }
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode key && keys.contains(key.getValue())) {
                return true;
            }
        }
        return false;
    }

    // ---- policies ----

    private Optional<ClusterConnectivityPolicy> readConnectivityPolicy(Node node, String path) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a connectivity policy", CONNECTIVITY_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping policy = read.get();
        Optional<String> name = yaml.requiredText(policy, "name", "the policy's name, e.g. client-server-policy");
        Optional<LabelSelector> left = clusterSelector(policy, "leftClusterSelector");
        Optional<LabelSelector> right = clusterSelector(policy, "rightClusterSelector");
        if (yaml.errorCount() != before) {
            return Optional.empty();
        }
        return Optional.of(new ClusterConnectivityPolicy(name.orElseThrow(), left.orElseThrow(), right.orElseThrow()));
    }

    private Optional<ClusterConnectionPolicy> readConnectionPolicy(Node node, String path) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a connection policy", CONNECTION_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping policy = read.get();
        Optional<LabelSelector> left = clusterSelector(policy, "leftClusterSelector");
        Optional<LabelSelector> right = clusterSelector(policy, "rightClusterSelector");
        Optional<CableDriverSpec> driver = yaml.required(policy, "cableDriver", "{name: vxlan} (libreswan, wireguard or vxlan)")
                .flatMap(n -> cableDriverSpec(n, policy.path("cableDriver")));
        if (yaml.errorCount() != before) {
            return Optional.empty();
        }
        return Optional.of(new ClusterConnectionPolicy(left.orElseThrow(), right.orElseThrow(), driver.orElseThrow()));
    }

    /** {@code {name: wireguard, options: {...}}}, or just the driver's name. */
    private Optional<CableDriverSpec> cableDriverSpec(Node node, String path) {
        if (node instanceof ScalarNode) {
            return yaml.choice(node, path, "cableDriver", CableDriver.values(), CableDriver::yamlName, false).map(CableDriverSpec::of);
        }
        Optional<YamlMapping> read = yaml.mapping(node, path, "cableDriver", CABLE_DRIVER_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping spec = read.get();
        Optional<CableDriver> driver = yaml.required(spec, "name", "libreswan, wireguard or vxlan")
                .flatMap(n -> yaml.choice(n, spec.path("name"), "cableDriver", CableDriver.values(), CableDriver::yamlName, false));
        Optional<Map<String, String>> options = spec.value("options")
                .map(n -> yaml.stringMap(n, spec.path("options"), "options", "{key: value}"))
                .orElse(Optional.of(Map.of()));
        return driver.flatMap(d -> options.map(o -> new CableDriverSpec(d, o)));
    }

    // ---- flows ----

    private Optional<Flow> readFlow(Node node, String path) {
        int before = yaml.errorCount();
        Optional<YamlMapping> read = yaml.mapping(node, path, "a flow", FLOW_FIELDS);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        YamlMapping flow = read.get();
        Optional<String> name = yaml.requiredText(flow, "name", "the flow's name, e.g. client-to-nginx");
        Optional<FlowSource> from = yaml.requiredText(flow, "from", FlowEndpointSyntax.SOURCE_FORMS)
                .flatMap(text -> endpoint(flow, "from", text, FlowEndpointSyntax::parseSource, FlowEndpointSyntax.SOURCE_FORMS));
        Optional<FlowTarget> to = yaml.requiredText(flow, "to", FlowEndpointSyntax.TARGET_FORMS)
                .flatMap(text -> endpoint(flow, "to", text, FlowEndpointSyntax::parseTarget, FlowEndpointSyntax.TARGET_FORMS));
        Protocol protocol = yaml.optionalChoice(flow, "protocol", Protocol.flowProtocols(), Protocol::lowerName, true).orElse(Protocol.TCP);
        Optional<Disposition> expect = yaml.optionalChoice(flow, "expect", Disposition.values(), Disposition::yamlName, false);
        Optional<Integer> size = yaml.optionalInt(flow, "size");
        if (yaml.errorCount() != before) {
            return Optional.empty();
        }
        return Optional.of(new Flow(name.orElseThrow(), from.orElseThrow(), to.orElseThrow(), protocol, expect,
                size.map(java.util.OptionalInt::of).orElse(java.util.OptionalInt.empty())));
    }

    private <T> Optional<T> endpoint(YamlMapping flow, String field, String text, Function<String, T> parser, String forms) {
        try {
            return Optional.of(parser.apply(text));
        } catch (IllegalArgumentException e) {
            yaml.error(flow.fields().get(field), flow.path(field), e.getMessage(), "write " + field + " as " + forms);
            return Optional.empty();
        }
    }
}
