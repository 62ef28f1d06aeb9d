package io.periscope.plan.link;

import io.periscope.model.net.Ipv4Address;

/**
 * A permanent neighbour entry ({@code ip neigh replace IP lladdr MAC dev D nud permanent}). The planner
 * writes none on Submariner's devices, as upstream writes none (ARP resolves); the agents read the
 * permanent ones on the devices they own, so that entries an earlier Periscope wrote there go.
 */
public record Neighbour(String device, Ipv4Address address, MacAddress mac) {
}
