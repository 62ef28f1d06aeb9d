package io.periscope.lab.layout;

import io.periscope.plan.HostId;

/** A port of a switch's bridge: the switch end of the veth whose other end is {@code hostInterface} of {@code host}. */
public record SwitchPort(String name, HostId host, String hostInterface) {
}
