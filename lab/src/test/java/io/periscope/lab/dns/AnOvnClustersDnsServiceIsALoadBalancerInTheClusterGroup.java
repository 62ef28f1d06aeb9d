package io.periscope.lab.dns;

import io.periscope.lab.Examples;
import io.periscope.lab.layout.LabLayout;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On an OVN-Kubernetes cluster the DNS Service is what ovnkube-master writes for kube-dns: a load
 * balancer per protocol from the Service address and port 53 to the server's node address and port
 * 10053, in the group every node switch applies, and a reroute of the pods' packets to that node's
 * address into its management port, below Submariner's policies.
 */
class AnOvnClustersDnsServiceIsALoadBalancerInTheClusterGroup {

    @Test
    void oneTransactionWritesBothLoadBalancersIntoTheGroupAndTheReroute() {
        ClusterSet set = Examples.load(Examples.GLOBALNET_OVN);
        ClusterDns dns = ClusterDns.of(ClusterDns.of(set, LabLayout.of(Planner.plan(set))), "east").orElseThrow();

        // The server runs on the cluster's first node that is not a gateway, whose ovn-k8s-mp0 holds its CNI address.
        assertThat(dns.server().host().name()).isEqualTo("east-worker");

        List<String> argv = new OvnClusterDns(dns, Ipv4Address.parse("10.244.1.1"), List.of(Ipv4Prefix.parse("10.244.0.0/16"))).transaction();

        assertThat(String.join(" ", argv)).isEqualTo(
                "--id=@dns_udp create Load_Balancer name=\"Service_kube-system/kube-dns_UDP_cluster\" protocol=udp"
                        + " vips:\"10.96.0.10:53\"=\"192.168.10.3:10053\" -- add Load_Balancer_Group clusterLBGroup load_balancer @dns_udp"
                        + " -- --id=@dns_tcp create Load_Balancer name=\"Service_kube-system/kube-dns_TCP_cluster\" protocol=tcp"
                        + " vips:\"10.96.0.10:53\"=\"192.168.10.3:10053\" -- add Load_Balancer_Group clusterLBGroup load_balancer @dns_tcp"
                        + " -- lr-policy-add ovn_cluster_router 1004 ip4.src == 10.244.0.0/16 && ip4.dst == 192.168.10.3 reroute 10.244.1.1");
    }
}
