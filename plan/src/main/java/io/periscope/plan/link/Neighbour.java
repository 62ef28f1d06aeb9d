package io.periscope.plan.link;

import io.periscope.model.net.Ipv4Address;

/** A permanent neighbour entry ({@code ip neigh replace IP lladdr MAC dev D nud permanent}). */
public record Neighbour(String device, Ipv4Address address, MacAddress mac) {
}
