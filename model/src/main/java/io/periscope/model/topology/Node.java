package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Address;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A cluster node. {@code ip} is its own (underlay) address, the one VXLAN tunnels use;
 * {@code cniIp} its address on the CNI network (what the multi-active-gateway SNAT uses);
 * {@code link} its default interface's name and MTU where the file states them.
 * {@code tcpClampMss} is upstream's {@value #TCP_CLAMP_MSS_ANNOTATION} annotation: the MSS its route
 * agent forces on TCP SYNs between the local and the remote clusters' subnets.
 */
public record Node(String name, Ipv4Address ip, Ipv4Address cniIp, boolean gateway, Optional<Ipv4Address> publicIp, NodeLink link,
                   OptionalInt tcpClampMss) {

    /** The node annotation upstream's route agent reads its forced MSS from (at start, on its own node). */
    public static final String TCP_CLAMP_MSS_ANNOTATION = "submariner.io/tcp-clamp-mss";
    /** The smallest forced MSS: 0 is how upstream spells "not forced". */
    public static final int MIN_TCP_CLAMP_MSS = 1;
    /** The largest value {@code iptables -j TCPMSS --set-mss} takes (65535 less a 20-byte IPv4 header). */
    public static final int MAX_TCP_CLAMP_MSS = 65515;

    public Node {
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(tcpClampMss, "tcpClampMss");
    }

    /** A node whose interface the file does not describe (the lab's {@code eth0}, MTU 1500), without the annotation. */
    public Node(String name, Ipv4Address ip, Ipv4Address cniIp, boolean gateway, Optional<Ipv4Address> publicIp) {
        this(name, ip, cniIp, gateway, publicIp, NodeLink.UNSTATED, OptionalInt.empty());
    }

    /** A node with the annotation's forced MSS and the lab's interface. */
    public Node(String name, Ipv4Address ip, Ipv4Address cniIp, boolean gateway, Optional<Ipv4Address> publicIp, OptionalInt tcpClampMss) {
        this(name, ip, cniIp, gateway, publicIp, NodeLink.UNSTATED, tcpClampMss);
    }

    /** The address other clusters' gateways reach this gateway at: its public IP if it has one. */
    public Ipv4Address endpointIp() {
        return publicIp.orElse(ip);
    }

    /**
     * Whether a NAT device stands in front of this gateway: it is reached at a public IP other than its
     * own, as upstream's NAT discovery would find it.
     */
    public boolean behindNat() {
        return publicIp.isPresent() && !publicIp.get().equals(ip);
    }

    public Node withLink(NodeLink newLink) {
        return new Node(name, ip, cniIp, gateway, publicIp, newLink, tcpClampMss);
    }

    /** The same node with the forced MSS of {@value #TCP_CLAMP_MSS_ANNOTATION}, or without one. */
    public Node withTcpClampMss(OptionalInt mss) {
        return new Node(name, ip, cniIp, gateway, publicIp, link, mss);
    }
}
