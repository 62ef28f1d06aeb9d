package io.periscope.plan;

import io.periscope.model.net.Ipv4Address;

import java.util.List;

/**
 * The names Periscope programs, as upstream Submariner uses them where upstream has them (seeds
 * README), so that what the simulator shows and what an operator finds on a real node agree.
 */
public final class Names {

    private Names() {
    }

    // Interfaces the lab and the planner's environment model give every host.
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

    /**
     * Upstream's libreswan driver has one pre-shared key for the whole cluster set, and its WireGuard
     * driver derives every peer's preshared key from it; the plan names it, never holds it.
     */
    public static final String IPSEC_PSK = "submariner-psk";

    /** What VXLAN adds to a packet: outer IPv4 (20), UDP (8), VXLAN (8) and inner Ethernet (14) headers. */
    public static final int VXLAN_OVERHEAD = 50;
    /** VXLAN's MTU over a 1500-byte underlay. */
    public static final int VXLAN_MTU = 1500 - VXLAN_OVERHEAD;

    /** A VXLAN device's MTU over an underlay device of MTU {@code underlayMtu}: upstream's "default interface MTU minus 50". */
    public static int vxlanMtu(int underlayMtu) {
        return underlayMtu - VXLAN_OVERHEAD;
    }

    // Routing tables and rule priorities.
    public static final int CABLE_TABLE = 100;
    public static final int HOST_NETWORK_TABLE = 150;
    /** Per-gateway egress: table {@code 160 + i} routes to active gateway {@code i} alone, for the pods it owns. */
    public static final int EGRESS_OWNER_TABLE_BASE = 160;
    public static final int EGRESS_OWNER_RULE_PRIORITY = 140;
    public static final int OVN_TABLE = 149;
    public static final int CABLE_RULE_PRIORITY = 100;
    public static final int HOST_NETWORK_RULE_PRIORITY = 150;
    public static final int CABLE_ROUTE_METRIC = 100;
    /** Per-address return routes to the gateway that owns a ClusterGlobalEgressIP win over metric 100. */
    public static final int EGRESS_IP_ROUTE_METRIC = 98;

    // nat / filter / mangle / raw chains.
    /** Every chain and ipset upstream's route agent and Globalnet create starts with one of these: what the agents own on a node. */
    public static final String SUBMARINER_PREFIX = "SUBMARINER-";
    public static final String GLOBALNET_PREFIX = "SM-GN-";
    public static final List<String> OWNED_PREFIXES = List.of(SUBMARINER_PREFIX, GLOBALNET_PREFIX);
    /** The VXLAN devices the agents create (and own, with their FDB and neighbours). */
    public static final List<String> OWNED_DEVICES = List.of(VX_SUBMARINER, VXLAN_TUNNEL);
    /** The routing tables whose static routes and rules are the agents'. */
    public static final List<Integer> OWNED_TABLES = List.of(CABLE_TABLE, OVN_TABLE, HOST_NETWORK_TABLE);

    public static final String POSTROUTING = "SUBMARINER-POSTROUTING";
    public static final String FORWARD = "SUBMARINER-FORWARD";
    public static final String INPUT = "SUBMARINER-INPUT";
    /** The OVN handler's own MSS clamp chain (seed 003), in filter FORWARD. */
    public static final String MSS_CLAMP = "SUBMARINER-FWD-MSSCLAMP";
    /** The MSS clamp's sets (upstream's MTU handler): the local and the remote clusters' endpoint subnets. */
    public static final String LOCAL_CIDRS_SET = "SUBMARINER-LOCALCIDRS";
    public static final String REMOTE_CIDRS_SET = "SUBMARINER-REMOTECIDRS";
    public static final String MANGLE_PREROUTING = "SUBMARINER-PREROUTING";
    public static final String GN_INGRESS = "SUBMARINER-GN-INGRESS";
    public static final String GN_EGRESS = "SUBMARINER-GN-EGRESS";
    public static final String GN_MARK = "SUBMARINER-GN-MARK";
    public static final String GN_EGRESS_PODS = "SM-GN-EGRESS-PODS";
    public static final String GN_EGRESS_HEADLESS_PODS = "SM-GN-EGRESS-HDLS-PODS";
    /** Upstream's chain for endpoints of headless services that are no pod (Endpoints without targetRef). */
    public static final String GN_EGRESS_HEADLESS_ENDPOINTS = "SM-GN-EGRESS-HDLS-EPS";
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

    // OVN-Kubernetes and Submariner's OVN topology (upstream's names and link-local addresses).
    public static final String OVN_CLUSTER_ROUTER = "ovn_cluster_router";
    public static final String SUBMARINER_ROUTER = "submariner_router";
    public static final String SUBMARINER_JOIN = "submariner_join";
    public static final String SUBMARINER_GATEWAY = "submariner_gateway";
    public static final String CLUSTER_LB_GROUP = "clusterLBGroup";
    /** ovn_cluster_router's port on submariner_join. */
    public static final String OVN_CLUSTER_SUBMARINER_PORT = "ovn_cluster_subm_lrp";
    /** submariner_router's port on submariner_join. */
    public static final String SUBMARINER_JOIN_PORT = "submariner_j_lrp";
    /** submariner_router's port on submariner_gateway. */
    public static final String SUBMARINER_UPSTREAM_PORT = "submariner_up_lrp";
    public static final String SUBMARINER_LOCALNET_PORT = "submariner_localnet";
    public static final String BR_SUBMARINER = "br-submariner";
    public static final String OVN_K8S_SUB0 = "ovn-k8s-sub0";
    /** OVN-Kubernetes' management port: the node's own interface on its logical switch. */
    public static final String OVN_K8S_MP0 = "ovn-k8s-mp0";
    /** submariner_join is 169.254.254.0/29: submariner_router .1, ovn_cluster_router .2. */
    public static final Ipv4Address SUBMARINER_JOIN_IP = Ipv4Address.parse("169.254.254.1");
    public static final Ipv4Address OVN_CLUSTER_SUBMARINER_IP = Ipv4Address.parse("169.254.254.2");
    /** submariner_gateway is 169.254.254.8/29: submariner_router .9, every node's ovn-k8s-sub0 .10 (seed 003). */
    public static final Ipv4Address SUBMARINER_UPSTREAM_IP = Ipv4Address.parse("169.254.254.9");
    public static final Ipv4Address OVN_K8S_SUB0_IP = Ipv4Address.parse("169.254.254.10");
    /**
     * ovn-k8s-sub0's MAC, the same on every node, as upstream's route agent gave it
     * ({@code ovnK8sSubmarinerInterfaceMAC} in {@code pkg/routeagent_driver/handlers/ovn/constants.go} at
     * {@code 826316ee^}): every node's port has one address, so when submariner_router moves to another
     * gateway's chassis the MAC binding OVN learned for 169.254.254.10 still names the port behind it.
     */
    public static final String OVN_K8S_SUB0_MAC = "0a:58:66:22:33:44";
    public static final int OVN_LINK_PREFIX_LENGTH = 29;
    /**
     * The key of the {@code external_ids} by which Submariner's route agent marks the static routes it
     * writes on {@code ovn_cluster_router} (upstream's {@code ovn_logical_routes.go}), and its value as
     * Periscope's agents write it: upstream writes its own version there, Periscope its name, as its
     * Gateway objects' version says.
     */
    public static final String OVN_SUBMARINER_EXTERNAL_ID = "submariner";
    public static final String OVN_SUBMARINER_EXTERNAL_ID_VALUE = "periscope";
    /** The priority of Submariner's reroute policies on ovn_cluster_router (upstream's). */
    public static final int OVN_REROUTE_PRIORITY = 20000;
    public static final int OVN_RULE_PRIORITY = 149;

    /**
     * OVN-Kubernetes' join switch: ovn_cluster_router at 100.64.0.1/16, each node's gateway router
     * (GR_<node>) at 100.64.0.2 onwards, in node order.
     */
    public static final String OVN_JOIN = "join";
    public static final String OVN_JOIN_ROUTER_PORT = "rtoj-ovn_cluster_router";
    public static final String OVN_JOIN_SWITCH_PORT = "jtor-ovn_cluster_router";
    public static final Ipv4Address OVN_JOIN_ROUTER_IP = Ipv4Address.parse("100.64.0.1");
    public static final int OVN_JOIN_PREFIX_LENGTH = 16;

    public static Ipv4Address gatewayRouterJoinIp(int nodeIndex) {
        return OVN_JOIN_ROUTER_IP.plus(1L + nodeIndex);
    }

    /** OVN-Kubernetes' router port toward a node's logical switch, and the switch's port facing it. */
    public static String routerToSwitchPort(String node) {
        return "rtos-" + node;
    }

    public static String switchToRouterPort(String node) {
        return "stor-" + node;
    }

    /** The node's own port on its switch (the management port ovn-k8s-mp0). */
    public static String managementSwitchPort(String node) {
        return "k8s-" + node;
    }

    /** On ovn-kubernetes the node's router port takes the address after the node's CNI address, which is ovn-k8s-mp0's. */
    public static Ipv4Address ovnRouterPortIp(Ipv4Address cniIp) {
        return cniIp.plus(1);
    }

    // kube-proxy (environment).
    public static final String KUBE_SERVICES = "KUBE-SERVICES";
}
