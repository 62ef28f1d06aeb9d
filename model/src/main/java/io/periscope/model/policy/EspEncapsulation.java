package io.periscope.model.policy;

import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.Node;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a Libreswan connection carries ESP between two gateways, decided as upstream decides it.
 * Upstream's libreswan driver ({@code pkg/cable/libreswan/libreswan.go}, the three
 * {@code *ConnectToEndpoint} functions) gives whack {@code --forceencaps} when
 * {@code endpointInfo.UseNAT || i.forceUDPEncapsulation}; otherwise Libreswan sends ESP as IP protocol
 * 50 and uses UDP only for IKE (on the NAT-T port, which upstream also makes the IKE port).
 *
 * <p>{@code UseNAT} comes from upstream's NAT discovery ({@code pkg/natdiscovery}): each gateway
 * probes the other's private and public IP; the receiver of a probe answers {@code NAT_DETECTED} when
 * the probe's source is not the address it was sent from or its destination is not the receiver's
 * private IP ({@code handleRequestFromAddress}), and a private-IP answer, preferred, means no NAT
 * ({@code transitionToPrivateIP}). Periscope's gateways reach each other only at their endpoint
 * addresses, so a gateway whose {@code publicIP} differs from its {@code ip} is behind NAT, and a
 * connection with such a gateway at either end uses NAT: from the one side the source changed, from
 * the other the destination is not the private IP.
 */
public sealed interface EspEncapsulation {

    /** The Libreswan option that forces UDP encapsulation, named after upstream's driver field {@code forceUDPEncapsulation}. */
    String FORCE_UDP_ENCAPSULATION_OPTION = "forceUDPEncapsulation";

    /** Whether ESP travels inside UDP (whack's {@code --forceencaps}, {@code encapsulation=yes}). */
    boolean inUdp();

    /** Why, in a phrase a trace and a plan print. */
    String why();

    /** ESP as IP protocol 50 straight between the endpoint addresses: no NAT, nothing forces UDP. */
    record Bare() implements EspEncapsulation {
        public boolean inUdp() {
            return false;
        }

        public String why() {
            return "ESP (IP protocol 50): no NAT between the endpoints (neither gateway has a publicIP other than its ip)"
                    + " and " + FORCE_UDP_ENCAPSULATION_OPTION + " is not set";
        }
    }

    /**
     * ESP in UDP on the NAT-T ports because NAT discovery finds NAT between the gateways.
     *
     * @param behindNat each gateway behind NAT, with its two addresses ({@code cloud-gw (publicIP 203.0.113.23, ip 172.31.23.2)})
     */
    record NatTraversal(List<String> behindNat) implements EspEncapsulation {
        public NatTraversal {
            behindNat = List.copyOf(behindNat);
        }

        public boolean inUdp() {
            return true;
        }

        public String why() {
            return "ESP in UDP (NAT-T): " + String.join(" and ", behindNat) + (behindNat.size() == 1 ? " is" : " are") + " behind NAT";
        }
    }

    /** ESP in UDP because the connection policy sets {@value #FORCE_UDP_ENCAPSULATION_OPTION} (upstream's {@code ceIPSecForceUDPEncaps}). */
    record Forced() implements EspEncapsulation {
        public boolean inUdp() {
            return true;
        }

        public String why() {
            return "ESP in UDP: the connection policy sets " + FORCE_UDP_ENCAPSULATION_OPTION + ": true";
        }
    }

    /** What upstream would do between {@code local} and {@code remote} with the pair's cable driver options. */
    static EspEncapsulation between(Node local, Node remote, CableDriverSpec cable) {
        if (forced(cable).orElse(false)) {
            return new Forced();
        }
        List<String> behindNat = new ArrayList<>();
        for (Node gateway : List.of(local, remote)) {
            gateway.publicIp().filter(p -> !p.equals(gateway.ip()))
                    .ifPresent(p -> behindNat.add(gateway.name() + " (publicIP " + p + ", ip " + gateway.ip() + ")"));
        }
        return behindNat.isEmpty() ? new Bare() : new NatTraversal(behindNat);
    }

    /**
     * The {@value #FORCE_UDP_ENCAPSULATION_OPTION} option: empty when absent or not {@code true} /
     * {@code false} (the validator reports any other value at its line).
     */
    static Optional<Boolean> forced(CableDriverSpec cable) {
        String text = cable.options().get(FORCE_UDP_ENCAPSULATION_OPTION);
        if (text == null) {
            return Optional.empty();
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> Optional.of(true);
            case "false" -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
