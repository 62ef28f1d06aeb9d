package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.link.MacAddress;

/**
 * Fixed MAC addresses of the environment's interfaces (the lab creates them so) and of OVN's logical
 * ports (the northbound database names them), derived from an address the interface is tied to and a
 * byte saying what the interface is. Submariner's VXLAN devices have none: the kernel picks theirs.
 * ovn-k8s-sub0 has upstream's one MAC on every node ({@code Names.OVN_K8S_SUB0_MAC}).
 */
final class Macs {

    static final int UNDERLAY = 0x01;
    static final int POD = 0x02;
    static final int POD_PEER = 0x03;
    static final int CNI = 0x04;
    static final int WAN = 0x05;
    static final int OVN_ROUTER_PORT = 0x06;

    private Macs() {
    }

    static MacAddress of(int kind, Ipv4Address address) {
        return MacAddress.locallyAdministered(kind, address.bits());
    }
}
