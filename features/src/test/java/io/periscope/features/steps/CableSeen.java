package io.periscope.features.steps;

import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Step;

import java.util.List;

/**
 * Which cable carried a packet from one cluster to another, as its last encapsulation on the sending
 * gateway shows it: VXLAN is the vxlan driver's cable, WireGuard the wireguard driver's, ESP (in UDP
 * or as IP protocol 50) the libreswan driver's.
 */
final class CableSeen {

    private CableSeen() {
    }

    static String on(Hop sendingHop) {
        List<Step.Encap> encaps = sendingHop.steps().stream().filter(Step.Encap.class::isInstance).map(Step.Encap.class::cast).toList();
        if (encaps.isEmpty()) {
            return "no cable (the packet left " + sendingHop.node() + " unencapsulated)";
        }
        Step.Encap last = encaps.getLast();
        return switch (last.encapsulation()) {
            case VXLAN -> "vxlan";
            case WIREGUARD -> "wireguard";
            case ESP_IN_UDP, ESP -> "libreswan";
        };
    }
}
