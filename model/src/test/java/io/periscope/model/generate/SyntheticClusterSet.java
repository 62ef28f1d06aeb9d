package io.periscope.model.generate;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Large, regular cluster sets for benchmarks: every cluster uses the same (overlapping) pod and
 * service CIDRs behind Globalnet, as most real clusters do. Node {@code n} of cluster {@code c} is
 * 172.16+c/256.c%256.n-ish; its pods live in its own /24 of 10.0.0.0/16 (so {@code nodes} is at
 * most 250). Pods take the labels {@code app-0 ... app-(appsPerCluster - 1)} and the namespaces
 * {@code ns-0 ... ns-9} in turn, and service {@code s} (in {@code ns-(s % 10)}) selects {@code app-s}:
 * with {@code appsPerCluster} a multiple of 10, each service has {@code podsPerCluster / appsPerCluster}
 * backends, and the pods with the other labels are clients only.
 *
 * @param gatewaysPerCluster the first nodes are gateways, all active when more than one
 */
public record SyntheticClusterSet(int clusters, int nodesPerCluster, int gatewaysPerCluster, int podsPerCluster,
                                  int exportedServicesPerCluster, int globalEgressIPsPerCluster, GlobalnetMode mode,
                                  int appsPerCluster) {

    /** Every pod a backend of one of the services: as many app labels as services. */
    public SyntheticClusterSet(int clusters, int nodesPerCluster, int gatewaysPerCluster, int podsPerCluster,
                               int exportedServicesPerCluster, int globalEgressIPsPerCluster, GlobalnetMode mode) {
        this(clusters, nodesPerCluster, gatewaysPerCluster, podsPerCluster, exportedServicesPerCluster,
                globalEgressIPsPerCluster, mode, Math.max(1, exportedServicesPerCluster));
    }

    public SyntheticClusterSet {
        if (appsPerCluster < 1) {
            throw new IllegalArgumentException("need at least one app label per cluster");
        }
        if (nodesPerCluster < 1 || nodesPerCluster > 250 || gatewaysPerCluster < 1 || gatewaysPerCluster > nodesPerCluster) {
            throw new IllegalArgumentException("need 1..250 nodes and 1..nodes gateways per cluster");
        }
        if (clusters < 1 || clusters > 4096) {
            throw new IllegalArgumentException("need 1..4096 clusters");
        }
        if (podsPerCluster > nodesPerCluster * 250) {
            throw new IllegalArgumentException("at most 250 pods per node");
        }
    }

    public ClusterSet build() {
        List<Cluster> all = new ArrayList<>();
        for (int c = 0; c < clusters; c++) {
            all.add(cluster(c));
        }
        return new ClusterSet("synthetic-" + clusters + "x" + nodesPerCluster,
                new GlobalnetConfig(true, Ipv4Prefix.parse("242.0.0.0/8"), clusters <= 256 ? 65536 : 4096, mode),
                CableDriver.VXLAN, all, List.of(), List.of(), List.of());
    }

    private Cluster cluster(int c) {
        String name = "c" + c;
        List<Node> nodes = new ArrayList<>();
        for (int n = 0; n < nodesPerCluster; n++) {
            // Node addresses are unique across the set: gateways share the WAN.
            Ipv4Address ip = Ipv4Address.of(172, 16 + (c >> 8), c & 0xff, n + 1);
            nodes.add(new Node("node-" + n, ip, Ipv4Address.of(10, 0, n, 1), n < gatewaysPerCluster, Optional.empty()));
        }
        List<Pod> pods = new ArrayList<>();
        for (int p = 0; p < podsPerCluster; p++) {
            int node = p % nodesPerCluster;
            int slot = p / nodesPerCluster;
            String app = "app-" + (p % appsPerCluster);
            pods.add(new Pod("pod-" + p, "ns-" + (p % 10), "node-" + node, Ipv4Address.of(10, 0, node, 2 + slot),
                    Map.of("app", app, "tier", p % 2 == 0 ? "db" : "web"), false));
        }
        List<Service> services = new ArrayList<>();
        List<ServiceExport> exports = new ArrayList<>();
        for (int s = 0; s < exportedServicesPerCluster; s++) {
            String namespace = "ns-" + (s % 10);
            services.add(new Service("svc-" + s, namespace, Optional.of(Ipv4Address.of(100, 0, s >> 8, s & 0xff)),
                    LabelSelector.ofLabels(Map.of("app", "app-" + s)), List.of(new ServicePort(80, 8080, Protocol.TCP))));
            exports.add(new ServiceExport(namespace, "svc-" + s));
        }
        List<GlobalEgressIP> egress = new ArrayList<>();
        for (int e = 0; e < globalEgressIPsPerCluster; e++) {
            String namespace = "ns-" + (e % 10);
            egress.add(e % 2 == 0
                    ? new GlobalEgressIP("ns-egress-" + e, namespace, Optional.empty(), 1)
                    : new GlobalEgressIP("db-egress-" + e, namespace, Optional.of(LabelSelector.ofLabels(Map.of("tier", "db"))), 2));
        }
        return new Cluster(name, Map.of("index", Integer.toString(c)), List.of(Ipv4Prefix.parse("10.0.0.0/16")),
                List.of(Ipv4Prefix.parse("100.0.0.0/16")), Optional.empty(), Cni.KUBE_PROXY, gatewaysPerCluster > 1,
                Cluster.DEFAULT_CLUSTER_EGRESS_IPS, GatewayLoadBalancing.MULTIPATH_ROUTES, nodes, pods, services, exports, egress);
    }
}
