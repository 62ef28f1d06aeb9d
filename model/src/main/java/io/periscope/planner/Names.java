package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;

/**
 * The names Periscope programs, as upstream Submariner uses them where upstream has them (seeds
 * README), so that what the simulator shows and what an operator finds on a real node agree.
 */
public final class Names {

    private Names() {
    }

    // Interfaces the lab and the planner's environment model give every host.
    public static final String UNDERLAY = "eth0";
    public static final String WAN = "wan0";
    public static final String CNI_BRIDGE = "cni0";
    public static final String POD_INTERFACE = "eth0";

    // The route agent's intra-cluster tunnel.
    public static final String VX_SUBMARINER = "vx-submariner";
    public static final int VX_SUBMARINER_VNI = 100;
    public static final int VX_SUBMARINER_PORT = 4800;
    public static final int VX_SUBMARINER_FIRST_OCTET = 240;

    // The vxlan cable driver's inter-cluster tunnel.
    public static final String VXLAN_TUNNEL = "vxlan-tunnel";
    public static final int VXLAN_TUNNEL_VNI = 1000;
    public static final int VXLAN_TUNNEL_PORT = 4500;
    public static final int VXLAN_TUNNEL_FIRST_OCTET = 241;

    // The WireGuard cable driver (upstream's device name and keepalive).
    public static final String WIREGUARD_DEVICE = "submariner";
    public static final int WIREGUARD_KEEPALIVE_SECONDS = 10;

    /** Upstream's libreswan driver has one pre-shared key for the whole cluster set; the plan names it, never holds it. */
    public static final String IPSEC_PSK = "submariner-psk";

    /** VXLAN adds 50 bytes of headers to a 1500-byte underlay. */
    public static final int VXLAN_MTU = 1450;

    // Routing tables and rule priorities.
    public static final int CABLE_TABLE = 100;
    public static final int HOST_NETWORK_TABLE = 150;
    public static final int OVN_TABLE = 149;
    public static final int CABLE_RULE_PRIORITY = 100;
    public static final int HOST_NETWORK_RULE_PRIORITY = 150;
    public static final int CABLE_ROUTE_METRIC = 100;
    /** Per-address return routes to the gateway that owns a ClusterGlobalEgressIP win over metric 100. */
    public static final int EGRESS_IP_ROUTE_METRIC = 98;

    // nat / filter / mangle / raw chains.
    public static final String POSTROUTING = "SUBMARINER-POSTROUTING";
    public static final String FORWARD = "SUBMARINER-FORWARD";
    public static final String INPUT = "SUBMARINER-INPUT";
    public static final String MSS_CLAMP = "SUBMARINER-FWD-MSSCLAMP";
    public static final String RAW = "SUBMARINER-RAW";
    public static final String MANGLE_PREROUTING = "SUBMARINER-PREROUTING";
    public static final String GN_INGRESS = "SUBMARINER-GN-INGRESS";
    public static final String GN_EGRESS = "SUBMARINER-GN-EGRESS";
    public static final String GN_MARK = "SUBMARINER-GN-MARK";
    public static final String GN_EGRESS_PODS = "SM-GN-EGRESS-PODS";
    public static final String GN_EGRESS_HEADLESS_PODS = "SM-GN-EGRESS-HDLS-PODS";
    public static final String GN_EGRESS_NAMESPACE = "SM-GN-EGRESS-NS";
    public static final String GN_EGRESS_CLUSTER = "SM-GN-EGRESS-CLUSTER";

    /** Traffic to remote clusters, marked in SUBMARINER-GN-MARK and matched by every egress SNAT. */
    public static final int GLOBALNET_MARK = 0xC0000;
    /**
     * Packets that came in over the inter-cluster tunnel. iptables has no {@code -i} in POSTROUTING,
     * so seed 004's "-i vxlan-tunnel ... --ctstate DNAT -j SNAT" is realised by marking them in
     * mangle PREROUTING and matching the mark in nat POSTROUTING.
     */
    public static final int FROM_REMOTE_MARK = 0x100000;

    /** The id of a gateway's WireGuard key pair; the lab generates the pair, plans only ever name it. */
    public static String wireGuardKey(String cluster, String gateway) {
        return "wireguard/" + cluster + "/" + gateway;
    }

    /** Upstream's cable name of a remote gateway's Endpoint, {@code submariner-cable-<cluster>-<private IP, dots as dashes>}. */
    public static String cableName(String cluster, Ipv4Address privateIp) {
        return "submariner-cable-" + cluster + "-" + privateIp.toString().replace('.', '-');
    }

    // kube-proxy (environment).
    public static final String KUBE_SERVICES = "KUBE-SERVICES";
}
