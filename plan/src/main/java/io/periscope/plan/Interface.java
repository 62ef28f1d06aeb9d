package io.periscope.plan;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.link.MacAddress;

import java.util.List;

/**
 * A plain interface of a host (not a VXLAN device, those are in {@link DataplanePlan}): its
 * addresses (each a /32 here: Periscope routes explicitly instead of guessing subnets), MAC and the
 * {@link Segment} it is plugged into.
 */
public record Interface(String name, List<Ipv4Address> addresses, MacAddress mac, String segment, int mtu) {

    public static final int DEFAULT_MTU = 1500;

    public Interface {
        addresses = List.copyOf(addresses);
    }
}
