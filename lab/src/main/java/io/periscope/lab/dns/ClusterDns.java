package io.periscope.lab.dns;

import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabLayout;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Node;
import io.periscope.plan.dns.ClusterDnsService;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a cluster's DNS server lives in the lab, as kube-dns lives on a cluster: a Service address
 * every pod's {@code resolv.conf} names ({@link ClusterDnsService}: kubeadm's 10th address of the
 * service CIDR), and one backend that kube-proxy's rules send that address to. The backend is the
 * server the supervisor runs, listening on port {@value #SERVER_PORT} of a node's own address inside
 * the node's namespace, as a host-network DNS pod would: the cluster's first node that is not a
 * gateway (so that failing gateways, which is what the lab is for, leaves name resolution standing),
 * else its first node. The Service's port is 53 and its target port {@value #SERVER_PORT}, kube-dns's
 * own port behind its dnsmasq: a host-network server keeps port 53 of the node free (for a node's own
 * resolver, a node-local cache, or a flow of the file to port 53 that the probe listens for).
 *
 * @param serviceAddress the DNS Service's cluster IP, which pods ask
 * @param server         the node whose namespace the server's sockets belong to
 * @param serverAddress  the node's address the server listens on (port {@value #SERVER_PORT}), the Service's one endpoint
 */
public record ClusterDns(String cluster, Ipv4Address serviceAddress, HostNamespace server, Ipv4Address serverAddress) {

    /** The DNS Service's port, which pods ask. */
    public static final int PORT = NamespaceDnsServer.PORT;
    /** The Service's target port: where the server listens on its node. */
    public static final int SERVER_PORT = 10053;

    /**
     * One per cluster, in cluster-set order.
     *
     * @throws IllegalArgumentException naming the cluster and its first service CIDR, when that CIDR has
     *                                  no address left that no service holds
     */
    public static List<ClusterDns> of(ClusterSet set, LabLayout layout) {
        List<ClusterDns> all = new ArrayList<>();
        for (int i = 0; i < set.clusters().size(); i++) {
            Cluster cluster = set.clusters().get(i);
            if (cluster.nodes().isEmpty()) {
                continue;
            }
            int index = i;
            ClusterDnsService service = ClusterDnsService.of(cluster).orElseThrow(() -> new IllegalArgumentException(
                    "clusters[" + index + "] (" + cluster.name() + ").serviceCIDRs[0] = " + cluster.serviceCidrs().getFirst()
                            + " has no address left for the cluster's DNS Service: kubeadm's choice, the 10th address, and every other"
                            + " address of it is a service's clusterIP; widen the service CIDR or move a service's clusterIP"));
            Node node = cluster.nodes().stream().filter(n -> !n.gateway()).findFirst().orElse(cluster.nodes().getFirst());
            Optional<HostNamespace> host = layout.nodes().stream()
                    .filter(h -> h.host().cluster().equals(cluster.name()) && h.host().name().equals(node.name())).findFirst();
            host.ifPresent(h -> all.add(new ClusterDns(cluster.name(), service.address(), h, node.ip())));
        }
        return List.copyOf(all);
    }

    /** The cluster's entry of {@code all}. */
    public static Optional<ClusterDns> of(List<ClusterDns> all, String cluster) {
        return all.stream().filter(d -> d.cluster().equals(cluster)).findFirst();
    }
}
