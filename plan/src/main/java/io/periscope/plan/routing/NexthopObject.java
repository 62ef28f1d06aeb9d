package io.periscope.plan.routing;

import io.periscope.model.net.Ipv4Address;

/** A kernel nexthop object ({@code ip nexthop add id N via A dev D}), option 2 and 3 of seed 004. */
public record NexthopObject(int id, Ipv4Address via, String device, boolean onlink) {
}
