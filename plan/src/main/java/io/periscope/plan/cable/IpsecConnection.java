package io.periscope.plan.cable;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.policy.EspEncapsulation;

import java.util.Optional;

/**
 * One Libreswan connection as upstream's libreswan cable driver configures it: a tunnel-mode ESP SA
 * from this gateway's private address to the remote gateway's endpoint address for one pair of
 * subnets (upstream creates one per local subnet x remote subnet and names it
 * {@code <remote cable name>-<local index>-<remote index>}).
 * Once routed it is a pair of kernel XFRM policies: packets from {@code leftSubnet} to
 * {@code rightSubnet} are encrypted to {@code right}, and the mirror image is expected from it.
 *
 * @param leftId        IKE identity; upstream uses the gateways' private (node) addresses
 * @param leftIkePort   this gateway's IKE / NAT-T port (upstream makes them one), where ESP-in-UDP arrives
 * @param rightIkePort  the remote gateway's
 * @param psk           the id of the pre-shared key (upstream has one for the whole cluster set); never the key
 * @param encapsulation whether ESP travels inside UDP on the NAT-T ports or as IP protocol 50, and why
 * @param ike           IKE proposals; empty leaves Libreswan's defaults, as upstream does
 * @param esp           ESP proposals; empty leaves Libreswan's defaults, as upstream does
 */
public record IpsecConnection(String name, Ipv4Address left, Ipv4Address leftId, Ipv4Prefix leftSubnet, int leftIkePort,
                              Ipv4Address right, Ipv4Address rightId, Ipv4Prefix rightSubnet, int rightIkePort,
                              String psk, EspEncapsulation encapsulation, Optional<String> ike, Optional<String> esp) {

    /**
     * Dead-peer detection, as upstream passes it to every connection ({@code pkg/cable/libreswan/libreswan.go}:
     * {@code --dpdaction=hold --dpddelay 30}): after 30 s without an answer the SA is held, so packets wait
     * for the peer instead of leaving unencrypted.
     */
    public static final String DPD_ACTION = "hold";
    public static final int DPD_DELAY_SECONDS = 30;

    /** Whack's {@code --forceencaps} ({@code encapsulation=yes}): upstream gives it exactly when ESP is to go inside UDP. */
    public boolean forceEncapsulation() {
        return encapsulation.inUdp();
    }

    /** Whether the outbound policy takes this packet: from the left subnet to the right one. */
    public boolean coversOutbound(Ipv4Address source, Ipv4Address destination) {
        return leftSubnet.contains(source) && rightSubnet.contains(destination);
    }

    /**
     * Whether this connection is the other end of {@code sender}'s: same SA, seen from here. IKE pairs
     * the two ends by their identities, not by their addresses: across NAT a gateway's {@code left} is
     * its private address while its peer's {@code right} for it is the public one.
     */
    public boolean mirrors(IpsecConnection sender) {
        return leftId.equals(sender.rightId) && rightId.equals(sender.leftId) && leftSubnet.equals(sender.rightSubnet)
                && rightSubnet.equals(sender.leftSubnet);
    }
}
