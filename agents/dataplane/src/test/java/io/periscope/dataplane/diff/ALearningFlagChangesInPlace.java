package io.periscope.dataplane.diff;

import io.periscope.dataplane.change.VxlanDeviceChange;
import io.periscope.dataplane.iproute.IpBatchRenderer;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.link.VxlanDevice;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 004's learning {@code vxlan-tunnel}: the flag is part of the device as created, and a device
 * whose flag differs from the plan's is changed in place, not deleted and made again (which would
 * flush its routes and give it a new MAC its peers would have to learn by ARP again).
 */
class ALearningFlagChangesInPlace {

    private static final VxlanDevice UPSTREAM = VxlanDevice.unbound("vxlan-tunnel", 1000, 4500, 1450,
            Ipv4Address.parse("241.18.0.6"), Ipv4Prefix.parse("241.0.0.0/8"));

    @Test
    void aNewDeviceIsCreatedWithItsFlag() {
        assertThat(IpBatchRenderer.lines(DataplaneDiff.between(plan(), plan(UPSTREAM.withLearning(true))).changes()))
                .contains("link add vxlan-tunnel type vxlan id 1000 dstport 4500 learning");
        assertThat(IpBatchRenderer.lines(DataplaneDiff.between(plan(), plan(UPSTREAM)).changes()))
                .contains("link add vxlan-tunnel type vxlan id 1000 dstport 4500 nolearning");
    }

    @Test
    void aDifferentFlagIsOneChangeInPlaceEitherWay() {
        DataplaneDiff on = DataplaneDiff.between(plan(UPSTREAM), plan(UPSTREAM.withLearning(true)));
        DataplaneDiff off = DataplaneDiff.between(plan(UPSTREAM.withLearning(true)), plan(UPSTREAM));

        assertThat(on.changes()).containsExactly(new VxlanDeviceChange(Optional.of(UPSTREAM), Optional.of(UPSTREAM.withLearning(true))));
        assertThat(IpBatchRenderer.lines(on.changes())).containsExactly("link set vxlan-tunnel type vxlan learning");
        assertThat(IpBatchRenderer.lines(off.changes())).containsExactly("link set vxlan-tunnel type vxlan nolearning");
    }

    private static DataplanePlan plan(VxlanDevice... devices) {
        return new DataplanePlan(List.of(), List.of(), List.of(devices), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
    }
}
