package io.periscope.plan.link;

import io.periscope.model.net.Ipv4Address;

/**
 * A VXLAN forwarding entry ({@code bridge fdb append MAC dev D dst IP self permanent}). The all-zero
 * MAC is the default destination list: frames for unknown MACs go to every such destination. The
 * planner writes only those, as upstream does; a peer's MAC is learned by ARP and its unicast frames
 * are copied to every destination, where only the device with that MAC keeps its copy.
 */
public record FdbEntry(String device, MacAddress mac, Ipv4Address destination) {
}
