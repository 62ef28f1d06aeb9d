package io.periscope.lab.dns;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.Names;

import java.util.ArrayList;
import java.util.List;

/**
 * The DNS Service of an OVN-Kubernetes cluster, served as OVN-Kubernetes serves every Service: a
 * pod's packet to a Service never reaches a node's iptables (the node DNAT of {@link ClusterDnsRules}
 * sees only the node's own and its host-network pods' queries), it meets OVN load balancers on its
 * node's logical switch. So the lab, standing in for OVN-Kubernetes, writes into the cluster's
 * northbound database what ovnkube-master writes for kube-dns: one {@code Load_Balancer} per protocol
 * ({@code Service_kube-system/kube-dns_UDP_cluster}, {@code ..._TCP_cluster}) from the Service
 * address and port 53 to its one endpoint, in the {@value Names#CLUSTER_LB_GROUP} group every node
 * switch applies.
 *
 * <p>The endpoint is a host-network server on a node's own address. OVN-Kubernetes reaches a node's
 * address from a pod through the pod's gateway router and the node's {@code breth0}; the lab's
 * gateway routers have no external switch, so a reroute policy stands in for that path: from the
 * cluster's pods to the server node's address, to that node's management port ({@code ovn-k8s-mp0},
 * which holds the node's CNI address), at OVN-Kubernetes' own priority for the reroute of a node's
 * pods to their node's address (1004), below Submariner's (20000).
 *
 * @param managementAddress the server node's {@code ovn-k8s-mp0} address
 */
public record OvnClusterDns(ClusterDns dns, Ipv4Address managementAddress, List<Ipv4Prefix> podCidrs) {

    /** OVN-Kubernetes' priority of a reroute to a node's management port. */
    public static final int REROUTE_PRIORITY = 1004;
    private static final String SERVICE = "Service_kube-system/kube-dns_";

    public OvnClusterDns {
        podCidrs = List.copyOf(podCidrs);
    }

    /** The names of the load balancers, one per protocol. */
    public static List<String> loadBalancers() {
        return List.of(SERVICE + "UDP_cluster", SERVICE + "TCP_cluster");
    }

    /** The arguments of one {@code ovn-nbctl} transaction (after its {@code --db}) that writes the rows. */
    public List<String> transaction() {
        String vip = dns.serviceAddress() + ":" + ClusterDns.PORT;
        String backend = dns.serverAddress() + ":" + ClusterDns.SERVER_PORT;
        List<String> argv = new ArrayList<>();
        for (String protocol : List.of("udp", "tcp")) {
            String id = "@dns_" + protocol;
            if (!argv.isEmpty()) {
                argv.add("--");
            }
            argv.addAll(List.of("--id=" + id, "create", "Load_Balancer", "name=\"" + SERVICE + protocol.toUpperCase(java.util.Locale.ROOT)
                    + "_cluster\"", "protocol=" + protocol, "vips:\"" + vip + "\"=\"" + backend + "\"",
                    "--", "add", "Load_Balancer_Group", Names.CLUSTER_LB_GROUP, "load_balancer", id));
        }
        for (Ipv4Prefix cidr : podCidrs) {
            argv.addAll(List.of("--", "lr-policy-add", Names.OVN_CLUSTER_ROUTER, String.valueOf(REROUTE_PRIORITY),
                    "ip4.src == " + cidr + " && ip4.dst == " + dns.serverAddress(), "reroute", managementAddress.toString()));
        }
        return List.copyOf(argv);
    }
}
