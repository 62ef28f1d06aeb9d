package io.periscope.dataplane.change;

import io.periscope.plan.link.VxlanDevice;

import java.util.Optional;

/**
 * A VXLAN device is created (with its address and MTU, and brought up; the kernel picks its MAC),
 * deleted, or changed in place. Only the MTU and learning can change in place: the kernel cannot
 * change a VXLAN device's VNI, port, local address or underlay, and taking its only address away
 * flushes every route through it, so any other difference is a deletion followed by a creation.
 */
public record VxlanDeviceChange(Optional<VxlanDevice> before, Optional<VxlanDevice> after) implements DataplaneChange {

    public VxlanDeviceChange {
        DataplaneChange.requireOneSide(before, after, "VXLAN device");
        if (before.isPresent() && after.isPresent() && !changeableInPlace(before.get(), after.get())) {
            throw new IllegalArgumentException("VXLAN device " + before.get().name()
                    + " can only change its MTU and learning in place; delete and create it instead");
        }
    }

    /** Whether the kernel can turn {@code from} into {@code to} without recreating the device. */
    public static boolean changeableInPlace(VxlanDevice from, VxlanDevice to) {
        return from.name().equals(to.name()) && from.vni() == to.vni() && from.port() == to.port()
                && from.local().equals(to.local()) && from.underlay().equals(to.underlay())
                && from.address().equals(to.address()) && from.network().equals(to.network());
    }

    public String name() {
        return after.or(() -> before).orElseThrow().name();
    }

    @Override
    public Tool tool() {
        return Tool.IP;
    }

    @Override
    public boolean isRemoval() {
        return after.isEmpty();
    }
}
