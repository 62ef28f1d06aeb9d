package io.periscope.kubernetes.modelbuilder;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterSpec;
import io.periscope.kubernetes.crd.ConnectionPolicy;
import io.periscope.kubernetes.crd.EndpointSpec;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.crd.SubmarinerEndpoint;
import io.periscope.model.load.TopologyValidator;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.Behaviour;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterConnectivityPolicy;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.EgressOwnership;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Builds the model the topology file produces from live objects. A cluster read in full (one
 * {@link LiveObjects} per cluster) becomes a complete {@link Cluster}; a cluster known only through
 * the broker (its Cluster object and Endpoints) becomes a cluster of its active gateways, which is
 * all the planner needs of a remote cluster. Pure: no I/O; objects it cannot use become
 * {@link ModelProblem}s.
 *
 * <p>Where the API does not say what the model needs:
 * <ul>
 *   <li>a node's CNI address is its {@value #CNI_IP_ANNOTATION} annotation (upstream's route agent
 *       writes it), else the first address of its {@code spec.podCIDR}, else its own address;</li>
 *   <li>its public address is its {@value #PUBLIC_IP_ANNOTATION} annotation, else an ExternalIP;</li>
 *   <li>the MSS its route agent forces is its {@code submariner.io/tcp-clamp-mss} annotation, read as
 *       upstream reads it: a whole number, 0 or absent for none;</li>
 *   <li>with a single active gateway, the holder of the gateway lease comes first among the
 *       gateways, because the model's first gateway is the active one;</li>
 *   <li>the cluster set's {@code behaviour} (seeds or upstream) is the local Cluster object's
 *       {@code behaviour}, as its Globalnet design is its {@code globalnet_mode}: seeds when unset.</li>
 * </ul>
 */
public final class ClusterModelBuilder {

    public static final String CNI_IP_ANNOTATION = "submariner.io/cniIfaceIp";
    public static final String PUBLIC_IP_ANNOTATION = "gateway.submariner.io/public-ip";

    private ClusterModelBuilder() {
    }

    /** The cluster id a Cluster object stands for: {@code spec.cluster_id}, else its name. */
    public static String clusterIdOf(SubmarinerCluster cluster) {
        ClusterSpec spec = cluster.getSpec();
        return spec != null && spec.clusterId() != null && !spec.clusterId().isBlank() ? spec.clusterId() : cluster.getMetadata().getName();
    }

    public static LiveModel build(String clusterSetName, List<LiveObjects> fullyRead) {
        List<ModelProblem> problems = new ArrayList<>();
        Map<String, Cluster> clusters = new LinkedHashMap<>();
        Map<String, Ipv4Prefix> globalCidrs = new LinkedHashMap<>();
        Map<String, SubmarinerCluster> clusterObjects = new LinkedHashMap<>();
        List<SubmarinerEndpoint> endpoints = new ArrayList<>();
        for (LiveObjects live : fullyRead) {
            live.clusters().forEach(c -> clusterObjects.putIfAbsent(clusterIdOf(c), c));
            endpoints.addAll(live.endpoints());
        }
        for (LiveObjects live : fullyRead) {
            Optional<SubmarinerCluster> own = live.localCluster();
            if (own.isEmpty()) {
                problems.add(new ModelProblem("Cluster " + live.clusterId(), "no Cluster object names this cluster, so its CIDRs are unknown; "
                        + "create one (see deploy/cluster.yaml)"));
                continue;
            }
            Cluster cluster = localCluster(live, own.get(), problems);
            clusters.put(cluster.name(), cluster);
            cluster.globalCidr().ifPresent(cidr -> globalCidrs.put(cluster.name(), cidr));
        }
        for (SubmarinerCluster object : clusterObjects.values()) {
            String id = clusterIdOf(object);
            if (clusters.containsKey(id)) {
                continue;
            }
            List<SubmarinerEndpoint> own = endpoints.stream().filter(e -> e.getSpec() != null && id.equals(e.getSpec().clusterId()))
                    .sorted(Comparator.comparing(e -> e.getMetadata().getName())).toList();
            if (own.isEmpty()) {
                // Not joined yet, or all its gateways are down: there is nothing to route to.
                continue;
            }
            Cluster remote = remoteCluster(object, own, problems);
            clusters.put(id, remote);
            remote.globalCidr().ifPresent(cidr -> globalCidrs.put(id, cidr));
        }
        List<LiveObjects> sources = fullyRead;
        GlobalnetMode mode = sources.stream().map(LiveObjects::localCluster).flatMap(Optional::stream)
                .map(c -> c.getSpec() == null ? null : c.getSpec().globalnetMode()).filter(m -> m != null && !m.isBlank()).findFirst()
                .map(m -> parse(m, GlobalnetMode.values(), GlobalnetMode::yamlName, GlobalnetMode.V2, "Cluster globalnet_mode", problems))
                .orElse(GlobalnetMode.V2);
        GlobalnetConfig globalnet = globalnetConfig(globalCidrs.values(), mode);
        CableDriver defaultDriver = sources.stream().map(LiveObjects::localCluster).flatMap(Optional::stream)
                .map(c -> c.getSpec() == null ? null : c.getSpec().cableDriver()).filter(d -> d != null)
                .findFirst().flatMap(CableDriver::parse).orElse(CableDriver.LIBRESWAN);
        // The cluster set's one setting, kept on each cluster's own object as globalnet_mode is: an
        // agent reads only its own cluster's, and the topology file gives every cluster the same.
        Behaviour behaviour = sources.stream().map(LiveObjects::localCluster).flatMap(Optional::stream)
                .map(c -> c.getSpec() == null ? null : c.getSpec().behaviour()).filter(b -> b != null && !b.isBlank()).findFirst()
                .map(b -> parse(b, Behaviour.values(), Behaviour::yamlName, Behaviour.SEEDS, "Cluster behaviour", problems))
                .orElse(Behaviour.SEEDS);
        ClusterSet set = new ClusterSet(clusterSetName, globalnet, defaultDriver, List.copyOf(clusters.values()),
                connectivityPolicies(sources, problems), connectionPolicies(sources, problems), List.of(), List.of(), behaviour);
        return new LiveModel(set, StatusGlobalAddresses.of(fullyRead, globalCidrs, endpoints), problems);
    }

    /**
     * Globalnet is on when any cluster has a global CIDR; the range is the broker's default unless a
     * CIDR lies outside it; the design is the local Cluster object's {@code globalnet_mode}.
     */
    private static GlobalnetConfig globalnetConfig(java.util.Collection<Ipv4Prefix> cidrs, GlobalnetMode mode) {
        if (cidrs.isEmpty()) {
            return GlobalnetConfig.DISABLED;
        }
        Ipv4Prefix range = cidrs.stream().allMatch(GlobalnetConfig.DEFAULT_CIDR::contains) ? GlobalnetConfig.DEFAULT_CIDR : covering(cidrs);
        return new GlobalnetConfig(true, range, GlobalnetConfig.DEFAULT_CLUSTER_SIZE, mode);
    }

    /** The longest prefix containing every CIDR. */
    private static Ipv4Prefix covering(java.util.Collection<Ipv4Prefix> cidrs) {
        Ipv4Prefix first = cidrs.iterator().next();
        for (int length = first.length(); length >= 0; length--) {
            Ipv4Prefix candidate = Ipv4Prefix.containing(first.network(), length);
            if (cidrs.stream().allMatch(candidate::contains)) {
                return candidate;
            }
        }
        return Ipv4Prefix.DEFAULT;
    }

    private static Cluster localCluster(LiveObjects live, SubmarinerCluster object, List<ModelProblem> problems) {
        ClusterSpec spec = object.getSpec() == null ? new ClusterSpec(live.clusterId(), null, null, null, null, null, null, null, null, null) : object.getSpec();
        String id = live.clusterId();
        List<Ipv4Prefix> podCidrs = prefixes(spec.clusterCidr(), "Cluster " + id + " cluster_cidr", problems);
        List<Ipv4Prefix> serviceCidrs = prefixes(spec.serviceCidr(), "Cluster " + id + " service_cidr", problems);
        Optional<Ipv4Prefix> globalCidr = prefixes(spec.globalCidr(), "Cluster " + id + " global_cidr", problems).stream().findFirst();
        boolean multiActive = Boolean.TRUE.equals(spec.multiActiveGateways());

        List<Node> nodes = nodes(live, multiActive, problems);
        List<Pod> pods = pods(live, id, podCidrs, nodes, problems);
        List<Service> services = services(live, problems);
        List<ServiceExport> exports = live.serviceExports().stream()
                .map(e -> new ServiceExport(e.getMetadata().getNamespace(), e.getMetadata().getName()))
                .sorted(Comparator.comparing(ServiceExport::toString)).toList();
        List<GlobalEgressIP> egress = new ArrayList<>();
        for (GlobalEgressIPResource object2 : sortedByAge(live.globalEgressIPs())) {
            String name = "GlobalEgressIP " + object2.getMetadata().getNamespace() + "/" + object2.getMetadata().getName();
            try {
                Integer n = object2.getSpec() == null ? null : object2.getSpec().numberOfIPs();
                Optional<LabelSelector> selector = object2.getSpec() == null || object2.getSpec().podSelector() == null
                        ? Optional.empty() : Optional.of(LabelSelectorConversion.toModel(object2.getSpec().podSelector()));
                egress.add(new GlobalEgressIP(object2.getMetadata().getName(), object2.getMetadata().getNamespace(), selector,
                        n == null ? GlobalEgressIP.DEFAULT_IPS : n));
            } catch (IllegalArgumentException e) {
                problems.add(new ModelProblem(name, e.getMessage()));
            }
        }
        return new Cluster(id, labels(object), podCidrs, serviceCidrs, globalCidr, parse(spec.cni(), Cni.values(), Cni::yamlName, Cni.KUBE_PROXY,
                "Cluster " + id + " cni", problems), multiActive,
                spec.clusterEgressIPs() == null ? Cluster.DEFAULT_CLUSTER_EGRESS_IPS : spec.clusterEgressIPs(),
                parse(spec.gatewayLoadBalancing(), GatewayLoadBalancing.values(), GatewayLoadBalancing::yamlName,
                        GatewayLoadBalancing.MULTIPATH_ROUTES, "Cluster " + id + " gateway_load_balancing", problems),
                nodes, pods, services, exports, egress)
                .withEgressOwnership(parse(spec.egressOwnership(), EgressOwnership.values(), EgressOwnership::yamlName,
                        EgressOwnership.SHARED, "Cluster " + id + " egress_ownership", problems));
    }

    private static Cluster remoteCluster(SubmarinerCluster object, List<SubmarinerEndpoint> endpoints, List<ModelProblem> problems) {
        ClusterSpec spec = object.getSpec();
        String id = clusterIdOf(object);
        Optional<Ipv4Prefix> globalCidr = spec == null ? Optional.empty()
                : prefixes(spec.globalCidr(), "Cluster " + id + " global_cidr", problems).stream().findFirst();
        List<Node> gateways = new ArrayList<>();
        for (SubmarinerEndpoint endpoint : endpoints) {
            EndpointSpec e = endpoint.getSpec();
            String name = "Endpoint " + endpoint.getMetadata().getNamespace() + "/" + endpoint.getMetadata().getName();
            try {
                Ipv4Address privateIp = Ipv4Address.parse(e.privateIp());
                Ipv4Address cniIp = cniAddress(e, privateIp, globalCidr);
                Optional<Ipv4Address> publicIp = e.publicIp() == null || e.publicIp().isBlank() || e.publicIp().equals(e.privateIp())
                        ? Optional.empty() : Optional.of(Ipv4Address.parse(e.publicIp()));
                gateways.add(new Node(e.hostname() == null ? endpoint.getMetadata().getName() : e.hostname(), privateIp, cniIp, true, publicIp));
            } catch (IllegalArgumentException ex) {
                problems.add(new ModelProblem(name, ex.getMessage()));
            }
        }
        boolean multiActive = spec != null && Boolean.TRUE.equals(spec.multiActiveGateways()) || gateways.size() > 1;
        List<Ipv4Prefix> podCidrs = spec == null ? List.of() : prefixes(spec.clusterCidr(), "Cluster " + id + " cluster_cidr", problems);
        List<Ipv4Prefix> serviceCidrs = spec == null ? List.of() : prefixes(spec.serviceCidr(), "Cluster " + id + " service_cidr", problems);
        return new Cluster(id, labels(object), podCidrs, serviceCidrs, globalCidr,
                parse(spec == null ? null : spec.cni(), Cni.values(), Cni::yamlName, Cni.KUBE_PROXY, "Cluster " + id + " cni", problems),
                multiActive, spec == null || spec.clusterEgressIPs() == null ? Cluster.DEFAULT_CLUSTER_EGRESS_IPS : spec.clusterEgressIPs(),
                parse(spec == null ? null : spec.gatewayLoadBalancing(), GatewayLoadBalancing.values(), GatewayLoadBalancing::yamlName,
                        GatewayLoadBalancing.MULTIPATH_ROUTES, "Cluster " + id + " gateway_load_balancing", problems),
                gateways, List.of(), List.of(), List.of(), List.of());
    }

    /**
     * A remote gateway's CNI address, from its Endpoint's {@code healthCheckIP}. Upstream writes the
     * gateway's CNI address there without Globalnet, and the gateway's own global IP with it (the
     * address remote health checks ping, DNATed to the CNI address on the gateway). A global IP is no
     * CNI address: the gateway is then taken at its private IP, as when the field is empty.
     */
    static Ipv4Address cniAddress(EndpointSpec endpoint, Ipv4Address privateIp, Optional<Ipv4Prefix> globalCidr) {
        if (endpoint.healthCheckIP() == null || endpoint.healthCheckIP().isBlank()) {
            return privateIp;
        }
        Ipv4Address healthCheckIp = Ipv4Address.parse(endpoint.healthCheckIP());
        return globalCidr.filter(g -> g.contains(healthCheckIp)).isPresent() ? privateIp : healthCheckIp;
    }

    private static List<Node> nodes(LiveObjects live, boolean multiActive, List<ModelProblem> problems) {
        List<Node> nodes = new ArrayList<>();
        java.util.Set<String> gatewayNodes = live.gatewayNodes();
        for (io.fabric8.kubernetes.api.model.Node object : live.nodes().stream().sorted(Comparator.comparing(n -> n.getMetadata().getName())).toList()) {
            String name = object.getMetadata().getName();
            List<NodeAddress> addresses = object.getStatus() == null || object.getStatus().getAddresses() == null
                    ? List.of() : object.getStatus().getAddresses();
            Optional<Ipv4Address> ip = address(addresses, "InternalIP");
            if (ip.isEmpty()) {
                problems.add(new ModelProblem("Node " + name, "has no IPv4 InternalIP address"));
                continue;
            }
            Map<String, String> annotations = object.getMetadata().getAnnotations() == null ? Map.of() : object.getMetadata().getAnnotations();
            Optional<Ipv4Address> cniIp = optionalAddress(annotations.get(CNI_IP_ANNOTATION), "Node " + name + " annotation " + CNI_IP_ANNOTATION, problems)
                    .or(() -> podCidrGateway(object));
            String publicText = annotations.get(PUBLIC_IP_ANNOTATION);
            // Upstream writes the annotation as "ipv4:1.2.3.4"; a bare address is accepted too.
            Optional<Ipv4Address> publicIp = optionalAddress(publicText == null ? null : publicText.replaceFirst("^ipv4:", ""),
                    "Node " + name + " annotation " + PUBLIC_IP_ANNOTATION, problems).or(() -> address(addresses, "ExternalIP"));
            boolean labelled = gatewayNodes.contains(name);
            // With multiple active gateways a labelled node whose agent holds no fresh lease carries
            // nothing: it is planned as an ordinary node until its agent is back.
            boolean gateway = labelled && (!multiActive || live.activeGateways().map(a -> a.contains(name)).orElse(true));
            OptionalInt tcpClampMss = tcpClampMss(annotations.get(Node.TCP_CLAMP_MSS_ANNOTATION), "Node " + name + " annotation "
                    + Node.TCP_CLAMP_MSS_ANNOTATION, problems);
            nodes.add(new Node(name, ip.get(), cniIp.orElse(ip.get()), gateway, publicIp.filter(p -> !p.equals(ip.get())), tcpClampMss));
        }
        if (!multiActive) {
            java.util.Set<String> leaders = live.activeGateways().orElse(java.util.Set.of());
            // Stable sort: only the lease holder moves, so the rest keep name order.
            nodes.sort(Comparator.comparing(n -> !(n.gateway() && leaders.contains(n.name()))));
        }
        return nodes;
    }

    private static Optional<Ipv4Address> podCidrGateway(io.fabric8.kubernetes.api.model.Node node) {
        if (node.getSpec() == null || node.getSpec().getPodCIDR() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Ipv4Prefix.parse(node.getSpec().getPodCIDR()).first().plus(1));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static List<Pod> pods(LiveObjects live, String clusterId, List<Ipv4Prefix> podCidrs, List<Node> nodes, List<ModelProblem> problems) {
        List<Pod> pods = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Pod object : live.pods().stream()
                .sorted(Comparator.comparing((io.fabric8.kubernetes.api.model.Pod p) -> p.getMetadata().getNamespace())
                        .thenComparing(p -> p.getMetadata().getName())).toList()) {
            String name = "Pod " + object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
            String phase = object.getStatus() == null ? null : object.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            String nodeName = object.getSpec() == null ? null : object.getSpec().getNodeName();
            String podIp = object.getStatus() == null ? null : object.getStatus().getPodIP();
            if (nodeName == null || podIp == null) {
                // Pending: not scheduled or without an address yet; it joins the model once it has both.
                continue;
            }
            // The topology file's rules, so that a live pod is left out for what a file's pod is refused for.
            Optional<String> elsewhere = TopologyValidator.podNodeProblem(clusterId, nodes,
                    object.getMetadata().getNamespace() + "/" + object.getMetadata().getName(), nodeName);
            if (elsewhere.isPresent()) {
                problems.add(new ModelProblem(name, elsewhere.get()));
                continue;
            }
            boolean hostNetwork = Boolean.TRUE.equals(object.getSpec().getHostNetwork());
            Ipv4Address ip;
            try {
                ip = Ipv4Address.parse(podIp);
            } catch (IllegalArgumentException e) {
                problems.add(new ModelProblem(name, e.getMessage()));
                continue;
            }
            Pod pod = new Pod(object.getMetadata().getName(), object.getMetadata().getNamespace(), nodeName, ip, labelsOf(object), hostNetwork);
            // A Cluster object without cluster_cidr says nothing of its pods' addresses: none is checked.
            Optional<String> outside = podCidrs.isEmpty() ? Optional.empty() : TopologyValidator.podIpProblem(clusterId, podCidrs, pod);
            if (outside.isPresent()) {
                problems.add(new ModelProblem(name, outside.get() + "; fix cluster_cidr in the Cluster object"));
                continue;
            }
            pods.add(pod);
        }
        return pods;
    }

    private static List<Service> services(LiveObjects live, List<ModelProblem> problems) {
        List<Service> services = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Service object : live.services().stream()
                .sorted(Comparator.comparing((io.fabric8.kubernetes.api.model.Service s) -> s.getMetadata().getNamespace())
                        .thenComparing(s -> s.getMetadata().getName())).toList()) {
            String namespace = object.getMetadata().getNamespace();
            String serviceName = object.getMetadata().getName();
            String name = "Service " + namespace + "/" + serviceName;
            var spec = object.getSpec();
            if (spec == null || "ExternalName".equals(spec.getType())) {
                continue;
            }
            Optional<Ipv4Address> clusterIp;
            if (spec.getClusterIP() == null || spec.getClusterIP().isEmpty() || "None".equals(spec.getClusterIP())) {
                clusterIp = Optional.empty();
            } else {
                try {
                    clusterIp = Optional.of(Ipv4Address.parse(spec.getClusterIP()));
                } catch (IllegalArgumentException e) {
                    problems.add(new ModelProblem(name, e.getMessage()));
                    continue;
                }
            }
            List<ServicePort> ports = new ArrayList<>();
            for (io.fabric8.kubernetes.api.model.ServicePort port : spec.getPorts() == null ? List.<io.fabric8.kubernetes.api.model.ServicePort>of() : spec.getPorts()) {
                Optional<Protocol> protocol = Protocol.parse(port.getProtocol() == null ? "TCP" : port.getProtocol()).filter(Protocol::hasPorts);
                if (protocol.isEmpty()) {
                    problems.add(new ModelProblem(name, "port " + port.getPort() + " uses protocol " + port.getProtocol() + ", which the model does not carry"));
                    continue;
                }
                Optional<Integer> target = targetPort(port, namespace, serviceName, live.endpointSlices());
                if (target.isEmpty()) {
                    problems.add(new ModelProblem(name, "port " + port.getPort() + " targets the named port '" + port.getTargetPort().getStrVal()
                            + "', which no EndpointSlice of the service resolves yet"));
                    continue;
                }
                ports.add(new ServicePort(port.getPort(), target.get(), protocol.get(),
                        Optional.ofNullable(port.getName()).filter(n -> !n.isEmpty())));
            }
            Map<String, String> selector = spec.getSelector() == null ? Map.of() : spec.getSelector();
            services.add(new Service(serviceName, namespace, clusterIp, LabelSelector.ofLabels(selector), ports));
        }
        return services;
    }

    /** A numeric targetPort as is; a named one through the service's EndpointSlices, which carry the resolved number. */
    private static Optional<Integer> targetPort(io.fabric8.kubernetes.api.model.ServicePort port, String namespace, String service,
                                                List<EndpointSlice> slices) {
        IntOrString target = port.getTargetPort();
        if (target == null) {
            return Optional.of(port.getPort());
        }
        if (target.getIntVal() != null) {
            return Optional.of(target.getIntVal());
        }
        String portName = port.getName() == null ? "" : port.getName();
        return slices.stream()
                .filter(s -> namespace.equals(s.getMetadata().getNamespace())
                        && service.equals(labelsOf(s).get("kubernetes.io/service-name")))
                .flatMap(s -> s.getPorts() == null ? java.util.stream.Stream.<EndpointPort>empty() : s.getPorts().stream())
                .filter(p -> portName.equals(p.getName() == null ? "" : p.getName()) && p.getPort() != null)
                .map(EndpointPort::getPort).findFirst();
    }

    private static List<ClusterConnectivityPolicy> connectivityPolicies(List<LiveObjects> sources, List<ModelProblem> problems) {
        Map<String, ClusterConnectivityPolicy> policies = new LinkedHashMap<>();
        for (LiveObjects live : sources) {
            for (ClusterConnectivityPolicyResource object : live.connectivityPolicies().stream()
                    .sorted(Comparator.comparing(p -> p.getMetadata().getName())).toList()) {
                String name = object.getMetadata().getName();
                try {
                    LabelSelector left = LabelSelectorConversion.toModel(object.getSpec() == null ? null : object.getSpec().leftClusterSelector());
                    LabelSelector right = LabelSelectorConversion.toModel(object.getSpec() == null ? null : object.getSpec().rightClusterSelector());
                    policies.putIfAbsent(name, new ClusterConnectivityPolicy(name, left, right));
                } catch (IllegalArgumentException e) {
                    problems.add(new ModelProblem("ClusterConnectivityPolicy " + name, e.getMessage()));
                }
            }
        }
        return List.copyOf(policies.values());
    }

    /**
     * The entries of the ClusterConnectionPolicies singleton, in their order. Seed 001 makes it one
     * object of a well-known name, so that the order of the list is the whole precedence: an object
     * of any other name is left out (a second list would need an order between lists, which the
     * seed rules out), and reported.
     */
    private static List<ClusterConnectionPolicy> connectionPolicies(List<LiveObjects> sources, List<ModelProblem> problems) {
        Map<String, List<ClusterConnectionPolicy>> byObject = new java.util.TreeMap<>();
        for (LiveObjects live : sources) {
            for (ClusterConnectionPolicies object : live.connectionPolicies()) {
                String name = object.getMetadata().getName();
                if (!ClusterConnectionPolicies.WELL_KNOWN_NAME.equals(name)) {
                    problems.add(new ModelProblem("ClusterConnectionPolicies " + object.getMetadata().getNamespace() + "/" + name,
                            ignoredBecause(name)));
                    continue;
                }
                if (byObject.containsKey(name)) {
                    continue;
                }
                List<ClusterConnectionPolicy> entries = new ArrayList<>();
                List<ConnectionPolicy> policies = object.getSpec() == null ? List.of() : object.getSpec().policies();
                for (int i = 0; i < policies.size(); i++) {
                    ConnectionPolicy policy = policies.get(i);
                    String where = "ClusterConnectionPolicies " + name + " policies[" + i + "]";
                    try {
                        if (policy.cableDriver() == null || policy.cableDriver().name() == null) {
                            throw new IllegalArgumentException("has no cableDriver.name");
                        }
                        CableDriver driver = CableDriver.parse(policy.cableDriver().name()).orElseThrow(() -> new IllegalArgumentException(
                                "cableDriver.name '" + policy.cableDriver().name() + "' is not one of libreswan, wireguard, vxlan"));
                        entries.add(new ClusterConnectionPolicy(LabelSelectorConversion.toModel(policy.leftClusterSelector()),
                                LabelSelectorConversion.toModel(policy.rightClusterSelector()),
                                new CableDriverSpec(driver, policy.cableDriver().options())));
                    } catch (IllegalArgumentException e) {
                        problems.add(new ModelProblem(where, e.getMessage()));
                    }
                }
                byObject.put(name, entries);
            }
        }
        return byObject.values().stream().flatMap(List::stream).toList();
    }

    /** Why a ClusterConnectionPolicies object named {@code name} is not read, and what to do instead. */
    public static String ignoredBecause(String name) {
        return "ignored: ClusterConnectionPolicies is a singleton (seed 001) and only the object named '"
                + ClusterConnectionPolicies.WELL_KNOWN_NAME + "' is read; move the policies of '" + name
                + "' into '" + ClusterConnectionPolicies.WELL_KNOWN_NAME + "' on the broker, in the order they should apply, and delete '"
                + name + "'";
    }

    static <T extends HasMetadata> List<T> sortedByAge(List<T> objects) {
        return objects.stream().sorted(Comparator.comparing((T o) -> o.getMetadata().getCreationTimestamp() == null ? "" : o.getMetadata().getCreationTimestamp())
                .thenComparing(o -> o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace())
                .thenComparing(o -> o.getMetadata().getName())).toList();
    }

    private static Map<String, String> labels(SubmarinerCluster object) {
        return labelsOf(object);
    }

    static Map<String, String> labelsOf(HasMetadata object) {
        return object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
    }

    private static List<Ipv4Prefix> prefixes(List<String> texts, String where, List<ModelProblem> problems) {
        List<Ipv4Prefix> prefixes = new ArrayList<>();
        for (String text : texts) {
            try {
                prefixes.add(Ipv4Prefix.parse(text));
            } catch (IllegalArgumentException e) {
                problems.add(new ModelProblem(where, e.getMessage()));
            }
        }
        return prefixes;
    }

    private static Optional<Ipv4Address> address(List<NodeAddress> addresses, String type) {
        return addresses.stream().filter(a -> type.equals(a.getType())).map(NodeAddress::getAddress).map(text -> {
            try {
                return Optional.of(Ipv4Address.parse(text));
            } catch (IllegalArgumentException e) {
                return Optional.<Ipv4Address>empty();
            }
        }).flatMap(Optional::stream).findFirst();
    }

    /**
     * Upstream's route agent takes the annotation with {@code strconv.Atoi}: no value or 0 forces
     * nothing, text that is not a number is an error it logs and then forces nothing. A number
     * iptables would refuse for {@code --set-mss} leaves the node without the rules; Periscope reports
     * it and forces nothing either.
     */
    private static OptionalInt tcpClampMss(String text, String where, List<ModelProblem> problems) {
        if (text == null || text.isEmpty()) {
            return OptionalInt.empty();
        }
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            problems.add(new ModelProblem(where, "'" + text + "' is not a whole number, so no MSS is forced"));
            return OptionalInt.empty();
        }
        if (value == 0) {
            return OptionalInt.empty();
        }
        Optional<String> problem = TopologyValidator.tcpClampMssProblem(value);
        if (problem.isPresent()) {
            problems.add(new ModelProblem(where, problem.get() + ", so no MSS is forced"));
            return OptionalInt.empty();
        }
        return OptionalInt.of(value);
    }

    private static Optional<Ipv4Address> optionalAddress(String text, String where, List<ModelProblem> problems) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Ipv4Address.parse(text.trim()));
        } catch (IllegalArgumentException e) {
            problems.add(new ModelProblem(where, e.getMessage()));
            return Optional.empty();
        }
    }

    private static <E> E parse(String text, E[] values, Function<E, String> name, E fallback, String where, List<ModelProblem> problems) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        for (E value : values) {
            if (name.apply(value).equals(text)) {
                return value;
            }
        }
        problems.add(new ModelProblem(where, "'" + text + "' is not one of "
                + Arrays.stream(values).map(name).toList() + "; using " + name.apply(fallback)));
        return fallback;
    }
}
