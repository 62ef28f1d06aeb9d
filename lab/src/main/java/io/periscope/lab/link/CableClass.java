package io.periscope.lab.link;

import io.periscope.model.net.Ipv4Address;

import java.util.List;

/**
 * The share of a gateway's WAN device that one cable gets: the packets to the other cluster's
 * gateways (the outer packets of VXLAN and WireGuard cables are addressed to their endpoint IPs) go
 * into an htb class of the cable's rate, under the uplink's.
 *
 * @param cluster      the cluster at the other end
 * @param minor        the class's minor number (tc writes it in hex: {@code 2:10} is 16), also the cable's NFQUEUE number
 * @param rateBits     the cable's rate, bits per second
 * @param queuePackets how many packets may wait for it
 * @param destinations the other cluster's gateways' endpoint addresses
 */
public record CableClass(String cluster, int minor, long rateBits, int queuePackets, List<Ipv4Address> destinations) {

    public CableClass {
        destinations = List.copyOf(destinations);
    }
}
