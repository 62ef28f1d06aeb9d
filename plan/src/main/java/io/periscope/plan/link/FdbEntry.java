package io.periscope.plan.link;

import io.periscope.model.net.Ipv4Address;

/**
 * A VXLAN forwarding entry ({@code bridge fdb append MAC dev D dst IP self permanent}). The all-zero
 * MAC is the default destination list: frames for unknown MACs go to every such destination.
 */
public record FdbEntry(String device, MacAddress mac, Ipv4Address destination) {
}
