package io.periscope.features.steps;

import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Step;

import java.util.List;

/**
 * Which cable carried a packet from one cluster to another, as its last encapsulation on the sending
 * gateway shows it. Only the vxlan cable exists as a device today ({@code vxlan-tunnel}, VNI 1000,
 * UDP 4500); any other encapsulation is named by its device so a scenario that expects another driver
 * says what it found instead.
 */
final class CableSeen {

    static final String VXLAN_CABLE_DEVICE = "vxlan-tunnel";

    private CableSeen() {
    }

    static String on(Hop sendingHop) {
        List<Step.Encap> encaps = sendingHop.steps().stream().filter(Step.Encap.class::isInstance).map(Step.Encap.class::cast).toList();
        if (encaps.isEmpty()) {
            return "no cable (the packet left " + sendingHop.node() + " unencapsulated)";
        }
        Step.Encap last = encaps.getLast();
        return last.device().equals(VXLAN_CABLE_DEVICE) ? "vxlan" : "the device " + last.device() + " (VNI " + last.vni() + ", UDP " + last.port() + ")";
    }
}
