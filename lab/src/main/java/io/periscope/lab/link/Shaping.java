package io.periscope.lab.link;

import java.util.List;
import java.util.OptionalLong;

/**
 * What one device's egress is shaped to: the uplink's rate and queue and, on a gateway's WAN device,
 * a class per cable with a rate. At least one of the two is there; a device with neither is left
 * without a qdisc of the lab's.
 *
 * @param uplinkRateBits the uplink's rate; empty when only cables are shaped (the device's own traffic then
 *                       runs at {@link TcShaping#LINE_RATE_BITS})
 * @param uplinkQueue    the packets the uplink's queue holds (and, on a WAN device, that of the traffic of no cable)
 * @param cables         the cables' classes, in the order of the clusters at their other ends
 */
public record Shaping(OptionalLong uplinkRateBits, int uplinkQueue, List<CableClass> cables) {

    public Shaping {
        cables = List.copyOf(cables);
        if (uplinkRateBits.isEmpty() && cables.isEmpty()) {
            throw new IllegalArgumentException("a shaping needs a rate: the uplink's or a cable's");
        }
    }
}
