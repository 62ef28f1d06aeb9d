package io.periscope.lab.dns;

/**
 * What kube-proxy programs on every node for the DNS Service: a packet to the Service address on
 * port 53 (UDP or TCP) is DNATed to its one endpoint, the server's node address and target port, in {@code PREROUTING}
 * (from the node's pods) and {@code OUTPUT} (from the node itself and its host-network pods);
 * conntrack turns the answers' source back into the Service address. Written as an
 * {@code iptables-restore --noflush} batch into a chain of the lab's own, {@value #CHAIN}: the lab's
 * kube-proxy stand-in owns the {@code KUBE-} chains and reconciles them from the plan, which has no
 * DNS Service, and Periscope's agents leave chains they do not own alone. The jumps are appended,
 * below Periscope's and kube-proxy's, as a later kube-proxy rule would be.
 */
public final class ClusterDnsRules {

    public static final String CHAIN = "LAB-KUBE-DNS";

    private ClusterDnsRules() {
    }

    public static String restore(ClusterDns dns) {
        String service = dns.serviceAddress() + "/32";
        String endpoint = dns.serverAddress() + ":" + ClusterDns.SERVER_PORT;
        return "*nat\n"
                + ":" + CHAIN + " - [0:0]\n"
                + "-A PREROUTING -d " + service + " -m comment --comment \"kube-system/kube-dns cluster IP\" -j " + CHAIN + "\n"
                + "-A OUTPUT -d " + service + " -m comment --comment \"kube-system/kube-dns cluster IP\" -j " + CHAIN + "\n"
                + "-A " + CHAIN + " -p udp -m udp --dport " + ClusterDns.PORT + " -j DNAT --to-destination " + endpoint + "\n"
                + "-A " + CHAIN + " -p tcp -m tcp --dport " + ClusterDns.PORT + " -j DNAT --to-destination " + endpoint + "\n"
                + "COMMIT\n";
    }
}
