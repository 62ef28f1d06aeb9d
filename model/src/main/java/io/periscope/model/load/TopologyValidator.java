package io.periscope.model.load;

import io.periscope.model.globalnet.GlobalCidrAllocator;
import io.periscope.model.globalnet.GlobalCidrFailure;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4PrefixIndex;
import io.periscope.model.policy.CablePorts;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.policy.EspEncapsulation;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterConnectivityPolicy;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.EgressOwnership;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.NodeLink;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The rules a cluster set must follow beyond the shape of its file: names unique and well formed,
 * CIDRs that do not collide, addresses inside the networks they belong to, references (a pod's node,
 * an export's service, a flow's ends) that lead somewhere, counts inside upstream's limits. It works on
 * the records, so a cluster set built some other way can be checked too; {@link SourcePositions} ties
 * each finding back to a line of the file.
 */
public final class TopologyValidator {

    private final ClusterSet set;
    private final SourcePositions positions;
    private final IncompleteParts incomplete;
    private final String file;
    private final List<TopologyError> errors = new ArrayList<>();

    private TopologyValidator(ClusterSet set, SourcePositions positions, IncompleteParts incomplete, String file) {
        this.set = set;
        this.positions = positions;
        this.incomplete = incomplete;
        this.file = file;
    }

    /** Every rule broken by {@code set}; empty when it can be used. */
    public static List<TopologyError> validate(ClusterSet set, SourcePositions positions, String file) {
        return validate(set, positions, new IncompleteParts(), file);
    }

    static List<TopologyError> validate(ClusterSet set, SourcePositions positions, IncompleteParts incomplete, String file) {
        TopologyValidator validator = new TopologyValidator(set, positions, incomplete, file);
        validator.checkGlobalnet();
        validator.checkClusters();
        validator.checkConnectivityPolicies();
        validator.checkConnectionPolicies();
        validator.checkCables();
        validator.checkFlows();
        return List.copyOf(validator.errors);
    }

    private void error(String path, String problem, String fix) {
        SourcePosition position = positions.position(path);
        errors.add(new TopologyError(file, position.line(), position.column(), path, problem, fix));
    }

    /** " (line 12)" after a mention of another entry, so the user can find it; empty when unknown. */
    private String lineOf(String path) {
        SourcePosition position = positions.position(path);
        return position.known() ? " (line " + position.line() + ")" : "";
    }

    private String clusterPath(int index) {
        return positions.element("clusters", index);
    }

    private static String join(String path, String field) {
        return path + "." + field;
    }

    // ---- globalnet ----

    private void checkGlobalnet() {
        if (incomplete.hasGlobalnet()) {
            return;
        }
        GlobalnetConfig globalnet = set.globalnet();
        int size = globalnet.clusterSize();
        String path = "globalnet.clusterSize";
        if (size <= 0 || Integer.bitCount(size) != 1) {
            error(path, "clusterSize " + size + " is not a power of two; clusters get aligned CIDR blocks, whose sizes are powers of two",
                    "use a power of two, such as " + nearestPowerOfTwo(size));
        } else if (size > globalnet.cidr().size()) {
            error(path, "clusterSize " + size + " is larger than globalnet.cidr " + globalnet.cidr() + " (" + globalnet.cidr().size()
                    + " addresses)", "use at most " + globalnet.cidr().size() + ", or widen globalnet.cidr");
        } else if (size < 4) {
            error(path, "clusterSize " + size + " leaves no usable address once the block's network and broadcast addresses are set aside",
                    "use at least 4 (a /30); 256 or more leaves room for egress and service IPs");
        }
    }

    private static int nearestPowerOfTwo(int size) {
        if (size <= 4) {
            return 4;
        }
        int lower = Integer.highestOneBit(size);
        if (lower >= 1 << 30) {
            return lower;
        }
        return size - lower <= (lower << 1) - size ? lower : lower << 1;
    }

    private boolean globalnetKnown() {
        return !incomplete.hasGlobalnet();
    }

    // ---- clusters ----

    private void checkClusters() {
        Map<String, Integer> firstByName = new HashMap<>();
        for (int i = 0; i < set.clusters().size(); i++) {
            Cluster cluster = set.clusters().get(i);
            String path = clusterPath(i);
            String namePath = join(path, "name");
            if (!KubernetesNames.isDnsLabel(cluster.name())) {
                error(namePath, "cluster name '" + cluster.name() + "' is not a DNS label",
                        "use " + KubernetesNames.labelRule() + suggestedLabel(cluster.name()));
            }
            Integer first = firstByName.putIfAbsent(cluster.name(), i);
            if (first != null) {
                error(namePath, "cluster name '" + cluster.name() + "' is already used by " + clusterPath(first)
                        + lineOf(join(clusterPath(first), "name")), "give every cluster its own name");
            }
            checkOwnCidrs(cluster, path);
            checkClusterSettings(cluster, path);
            checkNodes(cluster, path);
            checkPods(cluster, path);
            checkServices(cluster, path);
            checkExports(cluster, path);
            checkGlobalEgressIPs(cluster, path);
        }
        checkCidrsBetweenClusters();
        checkGlobalCidrs();
        checkGlobalCidrHandOut();
        checkGatewayAddressesBetweenClusters();
        checkNodeAddressesAgainstRemoteGateways();
    }

    /** ", e.g. 'east-1'" when lower-casing and replacing stray characters gives a valid label. */
    private static String suggestedLabel(String name) {
        String candidate = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
        return KubernetesNames.isDnsLabel(candidate) ? ", e.g. '" + candidate + "'" : "";
    }

    private void checkOwnCidrs(Cluster cluster, String path) {
        checkOverlapsWithin(cluster.podCidrs(), join(path, "podCIDRs"), "podCIDRs");
        checkOverlapsWithin(cluster.serviceCidrs(), join(path, "serviceCIDRs"), "serviceCIDRs");
        for (int s = 0; s < cluster.serviceCidrs().size(); s++) {
            Ipv4Prefix service = cluster.serviceCidrs().get(s);
            for (int p = 0; p < cluster.podCidrs().size(); p++) {
                Ipv4Prefix pod = cluster.podCidrs().get(p);
                if (service.overlaps(pod)) {
                    String podPath = positions.element(join(path, "podCIDRs"), p);
                    error(positions.element(join(path, "serviceCIDRs"), s), "service CIDR " + service + " overlaps the cluster's pod CIDR "
                            + pod + lineOf(podPath), "give the cluster's pods and services separate networks");
                    break;
                }
            }
        }
    }

    private void checkOverlapsWithin(List<Ipv4Prefix> prefixes, String listPath, String field) {
        Ipv4PrefixIndex<Integer> earlier = new Ipv4PrefixIndex<>();
        for (int a = 0; a < prefixes.size(); a++) {
            Optional<Integer> b = earlier.overlapping(prefixes.get(a));
            if (b.isPresent()) {
                error(positions.element(listPath, a), field + " entry " + prefixes.get(a) + " overlaps entry " + prefixes.get(b.get())
                        + lineOf(positions.element(listPath, b.get())), "list each network once, without overlaps");
            }
            earlier.add(prefixes.get(a), a);
        }
    }

    private void checkClusterSettings(Cluster cluster, String path) {
        if (cluster.clusterEgressIPs() < GlobalEgressIP.MIN_IPS || cluster.clusterEgressIPs() > GlobalEgressIP.MAX_IPS) {
            error(join(path, "clusterEgressIPs"), "clusterEgressIPs " + cluster.clusterEgressIPs() + " is outside "
                            + GlobalEgressIP.MIN_IPS + ".." + GlobalEgressIP.MAX_IPS + ", the limit Globalnet puts on a ClusterGlobalEgressIP",
                    "use a number from " + GlobalEgressIP.MIN_IPS + " to " + GlobalEgressIP.MAX_IPS + " (the default is "
                            + Cluster.DEFAULT_CLUSTER_EGRESS_IPS + ")");
        }
        if (cluster.environment().cniMasquerade() != io.periscope.model.topology.CniMasquerade.NONE
                && cluster.cni() == io.periscope.model.topology.Cni.OVN_KUBERNETES) {
            error(join(path, "cniMasquerade"), "cniMasquerade " + cluster.environment().cniMasquerade().yamlName()
                    + " describes a kube-proxy CNI's masquerade rule; OVN-Kubernetes does its own NAT",
                    "remove cniMasquerade, or use cni: kube-proxy");
        }
        if (positions.contains(join(path, "gatewayLoadBalancing")) && !cluster.multiActiveGateways()) {
            error(join(path, "gatewayLoadBalancing"), "gatewayLoadBalancing " + cluster.loadBalancing().yamlName()
                            + " has no effect: cluster '" + cluster.name() + "' has one active gateway",
                    "set multiActiveGateways: true, or remove gatewayLoadBalancing");
        }
        if (positions.contains(join(path, "egressOwnership")) && cluster.egressOwnership() == EgressOwnership.PER_GATEWAY) {
            if (!cluster.multiActiveGateways()) {
                error(join(path, "egressOwnership"), "egressOwnership per-gateway needs several active gateways: cluster '"
                        + cluster.name() + "' has one", "set multiActiveGateways: true, or remove egressOwnership");
            } else if (globalnetKnown() && (!set.globalnet().enabled() || set.globalnet().mode() != GlobalnetMode.V2)) {
                error(join(path, "egressOwnership"), "egressOwnership per-gateway owns Globalnet 2.0's egress addresses, and "
                        + (set.globalnet().enabled() ? "globalnet.mode is legacy" : "Globalnet is off"),
                        set.globalnet().enabled() ? "use globalnet.mode: v2, or remove egressOwnership" : "set globalnet.enabled: true, or remove egressOwnership");
            }
        }
        if (!set.globalnet().enabled() && globalnetKnown()) {
            cluster.globalCidr().ifPresent(cidr -> error(join(path, "globalCIDR"), "globalCIDR " + cidr
                    + " would be ignored: Globalnet is off", "set globalnet.enabled: true, or remove globalCIDR"));
            if (!cluster.globalEgressIPs().isEmpty()) {
                error(join(path, "globalEgressIPs"), "cluster '" + cluster.name() + "' declares GlobalEgressIPs, which would be ignored: Globalnet is off",
                        "set globalnet.enabled: true, or remove globalEgressIPs");
            }
        }
    }

    private void checkNodes(Cluster cluster, String path) {
        String listPath = join(path, "nodes");
        Map<String, Integer> byName = new HashMap<>();
        Map<Ipv4Address, Integer> byIp = new HashMap<>();
        Map<Ipv4Address, Integer> byCniIp = new HashMap<>();
        for (int n = 0; n < cluster.nodes().size(); n++) {
            Node node = cluster.nodes().get(n);
            String nodePath = positions.element(listPath, n);
            if (!KubernetesNames.isDnsSubdomain(node.name())) {
                error(join(nodePath, "name"), "node name '" + node.name() + "' is not a valid Kubernetes node name",
                        "use " + KubernetesNames.subdomainRule());
            }
            duplicate(byName, node.name(), n, listPath, "name",
                    "node name '" + node.name() + "' is already used in cluster '" + cluster.name() + "' by ", "give every node of a cluster its own name");
            duplicate(byIp, node.ip(), n, listPath, "ip",
                    "node ip " + node.ip() + " is already used in cluster '" + cluster.name() + "' by ", "give every node of a cluster its own address");
            duplicate(byCniIp, node.cniIp(), n, listPath, "cniIP",
                    "node cniIP " + node.cniIp() + " is already used in cluster '" + cluster.name() + "' by ", "give every node its own address on the pod network");
            checkLink(node, nodePath);
            if (node.tcpClampMss().isPresent()) {
                int mss = node.tcpClampMss().getAsInt();
                tcpClampMssProblem(mss).ifPresent(problem -> error(join(nodePath, "tcpClampMss"), problem,
                        mss < Node.MIN_TCP_CLAMP_MSS ? "leave tcpClampMss out for no forced MSS, or give a value such as 1200"
                                : "use at most " + Node.MAX_TCP_CLAMP_MSS + "; an MSS above the path MTU less 40 changes nothing"));
            }
        }
        if (cluster.cni() == io.periscope.model.topology.Cni.OVN_KUBERNETES) {
            for (int n = 0; n < cluster.nodes().size(); n++) {
                Node node = cluster.nodes().get(n);
                Integer other = byCniIp.get(node.cniIp().plus(1));
                if (other != null) {
                    error(join(positions.element(listPath, n), "cniIP"), "on ovn-kubernetes node " + node.name() + "'s port on ovn_cluster_router"
                            + " takes the address after its cniIP, " + node.cniIp().plus(1) + ", which is node "
                            + cluster.nodes().get(other).name() + "'s cniIP", "leave the address after every node's cniIP free");
                }
            }
        }
        if (cluster.gateways().isEmpty() && !incomplete.hasSomeNode(cluster.name())) {
            boolean noNodes = cluster.nodes().isEmpty();
            error(noNodes ? path : listPath, "cluster '" + cluster.name() + "' has no gateway node, so it cannot connect to the other clusters",
                    noNodes ? "add nodes, at least one of them with gateway: true" : "mark at least one node with gateway: true");
        }
    }

    /** Reports entry {@code index} when an earlier entry of the list has the same key. */
    private <K> void duplicate(Map<K, Integer> seen, K key, int index, String listPath, String field, String problem, String fix) {
        Integer first = seen.putIfAbsent(key, index);
        if (first != null) {
            String firstPath = positions.element(listPath, first);
            error(join(positions.element(listPath, index), field), problem + firstPath + lineOf(firstPath), fix);
        }
    }

    // ---- rules other builders of a model check objects with (the Kubernetes model builder, on live objects) ----

    /** Why a node cannot force {@code mss} (upstream takes 0 for "not forced", iptables refuses TCPMSS --set-mss above 65515); empty when it can. */
    public static Optional<String> tcpClampMssProblem(int mss) {
        if (mss >= Node.MIN_TCP_CLAMP_MSS && mss <= Node.MAX_TCP_CLAMP_MSS) {
            return Optional.empty();
        }
        return Optional.of("tcpClampMss " + mss + " is outside " + Node.MIN_TCP_CLAMP_MSS + ".." + Node.MAX_TCP_CLAMP_MSS
                + ", the values iptables takes for TCPMSS --set-mss");
    }

    /**
     * Why a pod cannot run on {@code node}: it is none of {@code nodes}, those of cluster {@code cluster}; empty when it can.
     *
     * @param pod the pod's {@code namespace/name}
     */
    public static Optional<String> podNodeProblem(String cluster, List<Node> nodes, String pod, String node) {
        if (nodes.stream().anyMatch(n -> n.name().equals(node))) {
            return Optional.empty();
        }
        return Optional.of("pod '" + pod + "' runs on node '" + node + "', which is not a node of cluster '" + cluster + "'");
    }

    /** Why {@code pod}'s address does not belong to cluster {@code cluster} with {@code podCidrs}; empty when it does or the pod is on its node's network. */
    public static Optional<String> podIpProblem(String cluster, List<Ipv4Prefix> podCidrs, Pod pod) {
        if (pod.hostNetwork() || podCidrs.stream().anyMatch(c -> c.contains(pod.ip()))) {
            return Optional.empty();
        }
        return Optional.of("pod ip " + pod.ip() + " is outside cluster " + cluster + "'s podCIDRs " + podCidrs);
    }

    private void checkPods(Cluster cluster, String path) {
        String listPath = join(path, "pods");
        Map<String, Integer> byName = new HashMap<>();
        Map<Ipv4Address, Integer> byIp = new HashMap<>();
        Map<Ipv4Address, Node> nodeByCniIp = new HashMap<>();
        cluster.nodes().forEach(n -> nodeByCniIp.putIfAbsent(n.cniIp(), n));
        // On OVN-Kubernetes the node's logical switch port on ovn_cluster_router takes the address
        // after the node's cniIP (its management port ovn-k8s-mp0): no pod may have it.
        Map<Ipv4Address, Node> nodeByRouterPort = new HashMap<>();
        if (cluster.cni() == io.periscope.model.topology.Cni.OVN_KUBERNETES) {
            cluster.nodes().forEach(n -> nodeByRouterPort.putIfAbsent(n.cniIp().plus(1), n));
        }
        for (int p = 0; p < cluster.pods().size(); p++) {
            Pod pod = cluster.pods().get(p);
            String podPath = positions.element(listPath, p);
            checkNamespace(pod.namespace(), join(podPath, "namespace"));
            if (!KubernetesNames.isDnsSubdomain(pod.name())) {
                error(join(podPath, "name"), "pod name '" + pod.name() + "' is not a valid Kubernetes pod name",
                        "use " + KubernetesNames.subdomainRule());
            }
            duplicate(byName, pod.qualifiedName(), p, listPath, "name", "pod '" + pod.qualifiedName() + "' is already declared in cluster '"
                    + cluster.name() + "' by ", "give every pod of a namespace its own name");
            Optional<Node> node = cluster.node(pod.node());
            if (!incomplete.hasNode(cluster.name(), pod.node())) {
                podNodeProblem(cluster.name(), cluster.nodes(), pod.qualifiedName(), pod.node()).ifPresent(problem -> error(join(podPath, "node"), problem,
                        unknownNameFix("node", pod.node(), cluster.nodes().stream().map(Node::name).toList(),
                                "add the node under the cluster's nodes")));
            }
            String ipPath = join(podPath, "ip");
            if (pod.hostNetwork()) {
                if (node.isPresent() && !node.get().ip().equals(pod.ip())) {
                    error(ipPath, "host-network pod '" + pod.qualifiedName() + "' has ip " + pod.ip() + ", but its node '"
                            + node.get().name() + "' has ip " + node.get().ip(), "leave ip out (a host-network pod has its node's address) or write "
                            + node.get().ip());
                }
                continue;
            }
            if (!incomplete.hasPodCidrs(cluster.name())) {
                podIpProblem(cluster.name(), cluster.podCidrs(), pod).ifPresent(problem -> error(ipPath, problem,
                        "use an address inside " + cluster.podCidrs() + ", or set hostNetwork: true for a pod on its node's network"));
            }
            duplicate(byIp, pod.ip(), p, listPath, "ip", "pod ip " + pod.ip() + " is already used in cluster '" + cluster.name() + "' by ",
                    "give every pod its own address (host-network pods are the exception: they share their node's)");
            Node owner = nodeByCniIp.get(pod.ip());
            if (owner != null) {
                error(ipPath, "pod ip " + pod.ip() + " is node " + owner.name() + "'s cniIP", "give the pod an address of its own");
            }
            Node routed = nodeByRouterPort.get(pod.ip());
            if (routed != null) {
                error(ipPath, "pod ip " + pod.ip() + " is the address of node " + routed.name() + "'s port on ovn_cluster_router"
                        + " (on ovn-kubernetes the address after the node's cniIP " + routed.cniIp() + " is its pods' gateway)",
                        "give the pod another address");
            }
        }
    }

    private void checkNamespace(String namespace, String path) {
        if (!KubernetesNames.isDnsLabel(namespace)) {
            error(path, "namespace '" + namespace + "' is not a DNS label", "use " + KubernetesNames.labelRule() + suggestedLabel(namespace));
        }
    }

    private void checkServices(Cluster cluster, String path) {
        String listPath = join(path, "services");
        Map<String, Integer> byName = new HashMap<>();
        Map<Ipv4Address, Integer> byIp = new HashMap<>();
        for (int s = 0; s < cluster.services().size(); s++) {
            Service service = cluster.services().get(s);
            String servicePath = positions.element(listPath, s);
            checkNamespace(service.namespace(), join(servicePath, "namespace"));
            if (!KubernetesNames.isDnsLabel(service.name())) {
                error(join(servicePath, "name"), "service name '" + service.name() + "' is not a DNS label (it becomes part of DNS names)",
                        "use " + KubernetesNames.labelRule() + suggestedLabel(service.name()));
            }
            duplicate(byName, service.qualifiedName(), s, listPath, "name", "service '" + service.qualifiedName()
                    + "' is already declared in cluster '" + cluster.name() + "' by ", "give every service of a namespace its own name");
            if (service.clusterIp().isPresent()) {
                Ipv4Address ip = service.clusterIp().get();
                String ipPath = join(servicePath, "clusterIP");
                if (!incomplete.hasServiceCidrs(cluster.name()) && cluster.serviceCidrs().stream().noneMatch(c -> c.contains(ip))) {
                    error(ipPath, "clusterIP " + ip + " of service '" + service.qualifiedName() + "' is outside cluster " + cluster.name()
                            + "'s serviceCIDRs " + cluster.serviceCidrs(), "use an address inside " + cluster.serviceCidrs());
                }
                duplicate(byIp, ip, s, listPath, "clusterIP", "clusterIP " + ip + " is already used in cluster '" + cluster.name() + "' by ",
                        "give every service its own clusterIP");
            }
            checkPorts(service, join(servicePath, "ports"));
        }
    }

    private void checkPorts(Service service, String listPath) {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < service.ports().size(); i++) {
            ServicePort port = service.ports().get(i);
            String portPath = positions.element(listPath, i);
            checkPortNumber(port.port(), join(portPath, "port"), "port");
            if (port.targetPort() != port.port() || positions.contains(join(portPath, "targetPort"))) {
                checkPortNumber(port.targetPort(), join(portPath, "targetPort"), "targetPort");
            }
            duplicate(seen, port.port() + "/" + port.protocol(), i, listPath, "port", "port " + port.port() + "/" + port.protocol()
                    + " of service '" + service.qualifiedName() + "' is already listed by ", "list each port and protocol once");
            if (port.name().isPresent()) {
                String name = port.name().get();
                if (!PORT_NAME.matcher(name).matches() || name.contains("--") || name.chars().noneMatch(Character::isLetter)) {
                    error(join(portPath, "name"), "port name '" + name + "' of service '" + service.qualifiedName()
                            + "' is not a Kubernetes port name", "use 1 to 15 lowercase letters, digits and '-', with at least"
                            + " one letter, no '--' and no '-' at either end, e.g. http");
                }
                duplicate(seen, "name " + name, i, listPath, "name", "port name '" + name + "' of service '" + service.qualifiedName()
                        + "' is already used by ", "give every port of a service its own name");
            }
        }
    }

    /** Kubernetes' IANA_SVC_NAME (the rest of the rule is checked next to it); DNS SRV names are made of it. */
    private static final java.util.regex.Pattern PORT_NAME = java.util.regex.Pattern.compile("[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?");

    private void checkPortNumber(int port, String path, String field) {
        if (port < 1 || port > 65535) {
            error(path, field + " " + port + " is outside 1..65535", "use a port number from 1 to 65535");
        }
    }

    private void checkExports(Cluster cluster, String path) {
        String listPath = join(path, "exports");
        Map<ServiceExport, Integer> seen = new HashMap<>();
        List<String> serviceNames = cluster.services().stream().map(Service::qualifiedName).toList();
        for (int e = 0; e < cluster.exports().size(); e++) {
            ServiceExport export = cluster.exports().get(e);
            String exportPath = positions.element(listPath, e);
            if (cluster.service(export.namespace(), export.name()).isEmpty()
                    && !incomplete.hasService(cluster.name(), export.namespace(), export.name())) {
                error(exportPath, "export '" + export + "' names no service of cluster '" + cluster.name() + "'",
                        unknownNameFix("service", export.toString(), serviceNames, "declare the service under the cluster's services, or remove the export"));
            }
            Integer first = seen.putIfAbsent(export, e);
            if (first != null) {
                String firstPath = positions.element(listPath, first);
                error(exportPath, "export '" + export + "' is already listed at " + firstPath + lineOf(firstPath), "list each export once");
            }
        }
    }

    private void checkGlobalEgressIPs(Cluster cluster, String path) {
        String listPath = join(path, "globalEgressIPs");
        Map<String, Integer> seen = new HashMap<>();
        for (int g = 0; g < cluster.globalEgressIPs().size(); g++) {
            GlobalEgressIP egress = cluster.globalEgressIPs().get(g);
            String egressPath = positions.element(listPath, g);
            checkNamespace(egress.namespace(), join(egressPath, "namespace"));
            if (egress.numberOfIPs() < GlobalEgressIP.MIN_IPS || egress.numberOfIPs() > GlobalEgressIP.MAX_IPS) {
                error(join(egressPath, "numberOfIPs"), "numberOfIPs " + egress.numberOfIPs() + " of GlobalEgressIP '" + egress.name()
                                + "' is outside " + GlobalEgressIP.MIN_IPS + ".." + GlobalEgressIP.MAX_IPS + ", the limit Globalnet enforces",
                        "use a number from " + GlobalEgressIP.MIN_IPS + " to " + GlobalEgressIP.MAX_IPS);
            }
            duplicate(seen, egress.namespace() + "/" + egress.name(), g, listPath, "name", "GlobalEgressIP '" + egress.namespace() + "/"
                    + egress.name() + "' is already declared in cluster '" + cluster.name() + "' by ", "give every GlobalEgressIP of a namespace its own name");
        }
    }

    /**
     * Without Globalnet, packets are routed by their real addresses, so no two clusters may share any.
     * Each entry is checked against an index of the earlier clusters' entries, not against each of them.
     */
    private void checkCidrsBetweenClusters() {
        if (set.globalnet().enabled() || !globalnetKnown()) {
            return;
        }
        Ipv4PrefixIndex<String> earlier = new Ipv4PrefixIndex<>();
        for (int i = 0; i < set.clusters().size(); i++) {
            Cluster cluster = set.clusters().get(i);
            for (String field : List.of("podCIDRs", "serviceCIDRs")) {
                List<Ipv4Prefix> mine = field.equals("podCIDRs") ? cluster.podCidrs() : cluster.serviceCidrs();
                for (int k = 0; k < mine.size(); k++) {
                    Optional<String> clash = earlier.overlapping(mine.get(k));
                    if (clash.isPresent()) {
                        error(positions.element(join(clusterPath(i), field), k), field + " entry " + mine.get(k) + " overlaps " + clash.get()
                                        + ", and Globalnet is off",
                                "give each cluster pod and service CIDRs of its own, or set globalnet.enabled: true to join clusters whose CIDRs overlap");
                    }
                }
            }
            for (String field : List.of("podCIDRs", "serviceCIDRs")) {
                List<Ipv4Prefix> mine = field.equals("podCIDRs") ? cluster.podCidrs() : cluster.serviceCidrs();
                for (int k = 0; k < mine.size(); k++) {
                    earlier.add(mine.get(k), "cluster " + cluster.name() + "'s " + field + " entry " + mine.get(k)
                            + lineOf(positions.element(join(clusterPath(i), field), k)));
                }
            }
        }
    }

    private void checkGlobalCidrs() {
        if (!set.globalnet().enabled() || !globalnetKnown()) {
            return;
        }
        Ipv4Prefix range = set.globalnet().cidr();
        Ipv4PrefixIndex<String> earlierGlobalCidrs = new Ipv4PrefixIndex<>();
        for (int i = 0; i < set.clusters().size(); i++) {
            Cluster cluster = set.clusters().get(i);
            for (String field : List.of("podCIDRs", "serviceCIDRs")) {
                List<Ipv4Prefix> own = field.equals("podCIDRs") ? cluster.podCidrs() : cluster.serviceCidrs();
                for (int k = 0; k < own.size(); k++) {
                    if (own.get(k).overlaps(range)) {
                        error(positions.element(join(clusterPath(i), field), k), field + " entry " + own.get(k) + " overlaps the global range "
                                + range + " (globalnet.cidr); global IPs would be mistaken for the cluster's own",
                                "move the cluster's network or globalnet.cidr so that they do not overlap");
                    }
                }
            }
            if (cluster.globalCidr().isEmpty()) {
                continue;
            }
            Ipv4Prefix global = cluster.globalCidr().get();
            String path = join(clusterPath(i), "globalCIDR");
            if (!range.contains(global)) {
                error(path, "globalCIDR " + global + " is outside the global range " + range + " (globalnet.cidr)",
                        "pick a block inside " + range + ", or widen globalnet.cidr");
            }
            Optional<String> clash = earlierGlobalCidrs.overlapping(global);
            if (clash.isPresent()) {
                error(path, "globalCIDR " + global + " overlaps " + clash.get(), "give every cluster a globalCIDR of its own");
            }
            earlierGlobalCidrs.add(global, "cluster " + cluster.name() + "'s globalCIDR " + global + lineOf(path));
        }
    }

    /**
     * The broker's hand-out itself, run on the file: what the rules above cannot see (a /31 or /32
     * globalCIDR, a global range with no block left for a cluster that names none) would otherwise only
     * surface when a command plans the cluster set. Skipped once the globalnet rules found a mistake, so
     * one mistake is not reported twice.
     */
    private void checkGlobalCidrHandOut() {
        boolean alreadyReported = errors.stream().anyMatch(e -> e.path().startsWith("globalnet")
                || e.path().endsWith(".globalCIDR") || e.path().matches("clusters\\[\\d+]\\.name"));
        if (!set.globalnet().enabled() || !globalnetKnown() || alreadyReported) {
            return;
        }
        for (GlobalCidrFailure failure : GlobalCidrAllocator.allocate(set.globalnet(), set.clusters()).failures()) {
            int index = clusterIndex(failure.cluster());
            if (index < 0) {
                continue;
            }
            String path = switch (failure.kind()) {
                case INVALID_CLUSTER_SIZE -> "globalnet.clusterSize";
                case GLOBAL_RANGE_EXHAUSTED, DUPLICATE_CLUSTER -> join(clusterPath(index), "name");
                case OUTSIDE_GLOBAL_RANGE, OVERLAPS_DECLARED, UNSUPPORTED_SIZE -> join(clusterPath(index), "globalCIDR");
            };
            String problem = failure.kind() == GlobalCidrFailure.Kind.GLOBAL_RANGE_EXHAUSTED
                    ? "cluster '" + failure.cluster() + "' " + failure.problem() + positionOf("globalnet.cidr")
                    : failure.problem();
            error(path, problem, failure.fix());
        }
    }

    /** " (globalnet.cidr, line 2)": where the named field is, when known. */
    private String positionOf(String path) {
        SourcePosition position = positions.position(path);
        return position.known() ? " (" + path + positionSuffix(path) + ")" : "";
    }

    private int clusterIndex(String name) {
        for (int i = 0; i < set.clusters().size(); i++) {
            if (set.clusters().get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Gateways of different clusters must be reachable at different addresses, or their cables would collide. */
    private void checkGatewayAddressesBetweenClusters() {
        record Gateway(String cluster, String name, String path) {
        }
        Map<Ipv4Address, Gateway> seen = new HashMap<>();
        for (int i = 0; i < set.clusters().size(); i++) {
            Cluster cluster = set.clusters().get(i);
            for (int n = 0; n < cluster.nodes().size(); n++) {
                Node node = cluster.nodes().get(n);
                if (!node.gateway()) {
                    continue;
                }
                String nodePath = positions.element(join(clusterPath(i), "nodes"), n);
                Gateway first = seen.putIfAbsent(node.endpointIp(), new Gateway(cluster.name(), node.name(), nodePath));
                if (first != null && !first.cluster().equals(cluster.name())) {
                    error(join(nodePath, node.publicIp().isPresent() ? "publicIP" : "ip"), "gateway '" + cluster.name() + "/" + node.name()
                                    + "' is reached at " + node.endpointIp() + ", like gateway '" + first.cluster() + "/" + first.name() + "'"
                                    + lineOf(first.path()),
                            "give gateways of different clusters different addresses (a publicIP if they sit behind NAT)");
                }
            }
        }
    }

    /**
     * A gateway routes every other cluster's gateway endpoint over the WAN and its own cluster's node
     * addresses over the underlay, so a node address of one cluster that is another cluster's gateway
     * endpoint gives that gateway two routes for one address (the kernel keeps one, the simulation
     * another). Gateway against gateway is {@link #checkGatewayAddressesBetweenClusters()}'s finding.
     */
    private void checkNodeAddressesAgainstRemoteGateways() {
        record Endpoint(String cluster, String node, String path) {
        }
        Map<Ipv4Address, Endpoint> endpoints = new HashMap<>();
        for (int i = 0; i < set.clusters().size(); i++) {
            Cluster cluster = set.clusters().get(i);
            for (int n = 0; n < cluster.nodes().size(); n++) {
                Node node = cluster.nodes().get(n);
                if (node.gateway()) {
                    String nodePath = positions.element(join(clusterPath(i), "nodes"), n);
                    endpoints.putIfAbsent(node.endpointIp(), new Endpoint(cluster.name(), node.name(),
                            join(nodePath, node.publicIp().isPresent() ? "publicIP" : "ip")));
                }
            }
        }
        for (int i = 0; i < set.clusters().size(); i++) {
            Cluster cluster = set.clusters().get(i);
            for (int n = 0; n < cluster.nodes().size(); n++) {
                Node node = cluster.nodes().get(n);
                String nodePath = positions.element(join(clusterPath(i), "nodes"), n);
                for (String field : List.of("ip", "cniIP")) {
                    Ipv4Address address = field.equals("ip") ? node.ip() : node.cniIp();
                    Endpoint gateway = endpoints.get(address);
                    if (gateway == null || gateway.cluster().equals(cluster.name())
                            || (node.gateway() && address.equals(node.endpointIp()))) {
                        continue;
                    }
                    error(join(nodePath, field), "node '" + cluster.name() + "/" + node.name() + "' has " + field + " " + address
                                    + ", the address gateway '" + gateway.cluster() + "/" + gateway.node() + "' is reached at ("
                                    + gateway.path() + positionSuffix(gateway.path()) + "); cluster " + cluster.name()
                                    + "'s gateways would route " + address + " both to this node and over the WAN",
                            "give the node an address no gateway of another cluster is reached at (or give that gateway a publicIP)");
                }
            }
        }
    }

    /** ", line 12" after a field's path, when its position is known. */
    private String positionSuffix(String path) {
        SourcePosition position = positions.position(path);
        return position.known() ? ", line " + position.line() : "";
    }

    private static String unknownNameFix(String kind, String typed, List<String> known, String otherwise) {
        Optional<String> close = NameSuggestion.closest(typed, known);
        if (close.isPresent()) {
            return "did you mean '" + close.get() + "'?";
        }
        return known.isEmpty() ? otherwise : otherwise + "; known " + kind + "s: " + String.join(", ", known);
    }

    // ---- policies ----

    private void checkConnectivityPolicies() {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < set.connectivityPolicies().size(); i++) {
            ClusterConnectivityPolicy policy = set.connectivityPolicies().get(i);
            duplicate(seen, policy.name(), i, "connectivityPolicies", "name", "connectivity policy name '" + policy.name()
                    + "' is already used by ", "give every connectivity policy its own name");
        }
    }

    /** The options each cable driver understands (Periscope plans them; anything else would be silently ignored). */
    static final Map<CableDriver, List<String>> CABLE_OPTIONS = Map.of(
            CableDriver.VXLAN, List.of(),
            CableDriver.WIREGUARD, List.of(CablePorts.UDP_PORT_OPTION),
            CableDriver.LIBRESWAN, List.of(CablePorts.UDP_PORT_OPTION, "ike", "esp", EspEncapsulation.FORCE_UDP_ENCAPSULATION_OPTION));

    private void checkConnectionPolicies() {
        boolean optionsUsable = true;
        for (int i = 0; i < set.connectionPolicies().size(); i++) {
            ClusterConnectionPolicy policy = set.connectionPolicies().get(i);
            CableDriverSpec driver = policy.cableDriver();
            String optionsPath = join(join(positions.element("connectionPolicies", i), "cableDriver"), "options");
            List<String> known = CABLE_OPTIONS.get(driver.name());
            for (Map.Entry<String, String> option : driver.options().entrySet()) {
                String path = join(optionsPath, option.getKey());
                if (!known.contains(option.getKey())) {
                    optionsUsable = false;
                    error(path, "option '" + option.getKey() + "' means nothing to the " + driver.name().yamlName() + " cable driver",
                            known.isEmpty() ? "remove it: the " + driver.name().yamlName() + " cable driver takes no options"
                                    : "remove it, or use one of: " + String.join(", ", known));
                } else if (option.getKey().equals(CablePorts.UDP_PORT_OPTION) && CablePorts.explicitPort(driver).isEmpty()) {
                    optionsUsable = false;
                    error(path, "udp-port '" + option.getValue() + "' is not a port number", "use a port number from 1 to 65535");
                } else if (option.getKey().equals(EspEncapsulation.FORCE_UDP_ENCAPSULATION_OPTION) && EspEncapsulation.forced(driver).isEmpty()) {
                    error(path, EspEncapsulation.FORCE_UDP_ENCAPSULATION_OPTION + " '" + option.getValue() + "' is not true or false",
                            "write true to send ESP inside UDP even without NAT (upstream's ceIPSecForceUDPEncaps), or false (the default)");
                }
            }
        }
        // Ports are worked out on the cluster graph, which needs clusters with unique names and usable options.
        if (!optionsUsable || !errors.isEmpty()) {
            return;
        }
        for (CablePorts.Conflict conflict : CablePorts.of(set, ClusterGraph.of(set)).conflicts()) {
            String path = conflict.policyIndex() < 0 ? "connectionPolicies"
                    : join(join(join(positions.element("connectionPolicies", conflict.policyIndex()), "cableDriver"), "options"),
                    CablePorts.UDP_PORT_OPTION);
            error(path, conflict.problem(), conflict.fix());
        }
    }

    // ---- cables ----

    /** Each {@code cables} entry must name a cable that exists: two different clusters the policies connect, once. */
    private void checkCables() {
        List<String> clusterNames = set.clusters().stream().map(Cluster::name).toList();
        Map<String, Integer> seen = new HashMap<>();
        boolean namesKnown = true;
        for (int i = 0; i < set.cables().size(); i++) {
            CableLink cable = set.cables().get(i);
            String path = join(positions.element("cables", i), "between");
            for (int side = 0; side < 2; side++) {
                String name = side == 0 ? cable.left() : cable.right();
                if (!clusterNames.contains(name)) {
                    namesKnown = false;
                    error(path + "[" + side + "]", "cable between " + cable.left() + " and " + cable.right() + " names cluster '" + name
                                    + "', which the file does not have",
                            unknownNameFix("cluster", name, clusterNames, "name a cluster of the file"));
                }
            }
            if (cable.left().equals(cable.right())) {
                namesKnown = false;
                error(path, "cable between " + cable.left() + " and itself: a cable joins two clusters' gateways",
                        "name two different clusters");
                continue;
            }
            String pair = cable.left().compareTo(cable.right()) < 0 ? cable.left() + "/" + cable.right() : cable.right() + "/" + cable.left();
            Integer first = seen.putIfAbsent(pair, i);
            if (first != null) {
                error(path, "the cable between " + cable.left() + " and " + cable.right() + " is already described by cables["
                        + first + "]" + lineOf(positions.element("cables", first)), "describe each cable once");
            }
        }
        // Whether the two clusters have a cable at all is the cluster graph's answer, which needs a sound file.
        if (!namesKnown || !errors.isEmpty()) {
            return;
        }
        ClusterGraph graph = ClusterGraph.of(set);
        for (int i = 0; i < set.cables().size(); i++) {
            CableLink cable = set.cables().get(i);
            boolean gateways = !set.requireCluster(cable.left()).gateways().isEmpty() && !set.requireCluster(cable.right()).gateways().isEmpty();
            if (!gateways || !graph.connected(cable.left(), cable.right())) {
                error(join(positions.element("cables", i), "between"), "there is no cable between " + cable.left() + " and "
                                + cable.right() + " to shape: " + noCableReason(cable),
                        "shape a cable that exists, or let the two clusters connect (connectivityPolicies)");
            }
        }
    }

    private String noCableReason(CableLink cable) {
        boolean leftGateway = !set.requireCluster(cable.left()).gateways().isEmpty();
        boolean rightGateway = !set.requireCluster(cable.right()).gateways().isEmpty();
        if (!leftGateway || !rightGateway) {
            return "cluster " + (!leftGateway ? cable.left() : cable.right()) + " has no gateway node";
        }
        return "no connectivity policy lets them connect";
    }

    // ---- flows ----

    /** Device names the agents or the lab create on a node themselves, which the node's own interface cannot take. */
    static final List<String> RESERVED_DEVICES = List.of("lo", "wan0", "cni0", "vx-submariner", "vxlan-tunnel", "submariner",
            "br-submariner", "ovn-k8s-sub0", "ovn-k8s-mp0", "br-int", "genev_sys_6081");

    private void checkLink(Node node, String nodePath) {
        node.link().interfaceName().ifPresent(name -> {
            NodeLink.nameProblem(name).ifPresent(problem -> error(join(nodePath, "interface"), "interface '" + name + "' of node '"
                    + node.name() + "' " + problem, "name the node's default interface as `ip link` shows it, e.g. ens5"));
            if (RESERVED_DEVICES.contains(name) || name.startsWith("p-")) {
                error(join(nodePath, "interface"), "interface '" + name + "' of node '" + node.name()
                                + "' is a name Periscope gives a device of its own on every node (" + String.join(", ", RESERVED_DEVICES)
                                + ", and p-<pod> for pods' veths)",
                        "name the node's default interface, the one holding its address, e.g. eth0 or ens5");
            }
        });
        node.link().mtu().ifPresent(mtu -> {
            if (mtu < NodeLink.MIN_MTU || mtu > NodeLink.MAX_MTU) {
                error(join(nodePath, "mtu"), "mtu " + mtu + " of node '" + node.name() + "' is outside " + NodeLink.MIN_MTU + ".."
                                + NodeLink.MAX_MTU + " bytes",
                        "use the interface's MTU as `ip link` shows it, e.g. 1500, 9001 (AWS jumbo frames) or 1460 (GCE)");
            }
        });
    }

    private void checkFlows() {
        Map<String, Integer> seen = new HashMap<>();
        List<String> clusterNames = set.clusters().stream().map(Cluster::name).toList();
        for (int i = 0; i < set.flows().size(); i++) {
            Flow flow = set.flows().get(i);
            String flowPath = positions.element("flows", i);
            duplicate(seen, flow.name(), i, "flows", "name", "flow name '" + flow.name() + "' is already used by ",
                    "give every flow its own name");
            checkSource(flow, join(flowPath, "from"), clusterNames);
            checkTarget(flow, join(flowPath, "to"), clusterNames);
            checkSize(flow, join(flowPath, "size"));
        }
    }

    private void checkSize(Flow flow, String path) {
        if (flow.size().isEmpty()) {
            return;
        }
        int size = flow.size().getAsInt();
        if (size < Flow.MIN_SIZE || size > Flow.MAX_SIZE) {
            error(path, "size " + size + " of flow '" + flow.name() + "' is outside " + Flow.MIN_SIZE + ".." + Flow.MAX_SIZE
                    + " bytes (an IP packet's total length)", "give the IP packet's length, headers included, e.g. 1400");
        } else if (flow.protocol() == Protocol.TCP) {
            error(path, "flow '" + flow.name() + "' is TCP, whose segments are as large as the MSS the handshake agrees "
                    + "(which the MSS clamp lowers), not a size the flow chooses", "use protocol udp or icmp to test a path's MTU");
        }
    }

    private void checkSource(Flow flow, String path, List<String> clusterNames) {
        Optional<Cluster> cluster = knownCluster(flow.from().cluster(), path, "from", clusterNames);
        if (cluster.isEmpty()) {
            return;
        }
        switch (flow.from()) {
            case FlowSource.PodSource pod -> checkPodReference(cluster.get(), pod.namespace(), pod.pod(), path, "from");
            case FlowSource.NodeSource node -> {
                if (cluster.get().node(node.node()).isEmpty() && !incomplete.hasNode(node.cluster(), node.node())) {
                    error(path, "from '" + node + "' names no node of cluster '" + node.cluster() + "'", unknownNameFix("node", node.node(),
                            cluster.get().nodes().stream().map(Node::name).toList(), "name one of the cluster's nodes"));
                }
            }
        }
    }

    private void checkTarget(Flow flow, String path, List<String> clusterNames) {
        switch (flow.to()) {
            case FlowTarget.PodTarget pod -> knownCluster(pod.cluster(), path, "to", clusterNames)
                    .ifPresent(c -> checkPodReference(c, pod.namespace(), pod.pod(), path, "to"));
            case FlowTarget.DnsTarget dns -> FlowEndpointSyntax.clusterOf(dns)
                    .ifPresent(c -> knownCluster(c, path, "to", clusterNames));
            case FlowTarget.AddressTarget address -> {
            }
        }
        boolean hasPort = flow.to().port() != 0;
        if (flow.protocol().hasPorts() && !hasPort) {
            error(path, flow.protocol().lowerName() + " flow '" + flow.name() + "' has no destination port in '" + flow.to() + "'",
                    "append the port, e.g. " + flow.to() + ":80, or use protocol: icmp");
        } else if (!flow.protocol().hasPorts() && hasPort) {
            error(path, "icmp flow '" + flow.name() + "' has port " + flow.to().port() + ", but icmp has no ports",
                    "remove ':" + flow.to().port() + "', or use protocol tcp or udp");
        }
    }

    private Optional<Cluster> knownCluster(String name, String path, String field, List<String> clusterNames) {
        Optional<Cluster> cluster = set.cluster(name);
        if (cluster.isEmpty()) {
            error(path, field + " names cluster '" + name + "', which is not in the topology",
                    unknownNameFix("cluster", name, clusterNames, "name one of the topology's clusters"));
        }
        return cluster;
    }

    private void checkPodReference(Cluster cluster, String namespace, String pod, String path, String field) {
        if (cluster.pod(namespace, pod).isEmpty() && !incomplete.hasPod(cluster.name(), namespace, pod)) {
            List<String> known = cluster.pods().stream().map(Pod::qualifiedName).toList();
            error(path, field + " names pod '" + namespace + "/" + pod + "', which is not a pod of cluster '" + cluster.name() + "'",
                    unknownNameFix("pod", namespace + "/" + pod, known, "declare the pod under the cluster's pods"));
        }
    }
}
