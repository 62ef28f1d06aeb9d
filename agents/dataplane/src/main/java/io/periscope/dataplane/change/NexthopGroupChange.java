package io.periscope.dataplane.change;

import io.periscope.plan.routing.NexthopGroup;

import java.util.Optional;

/**
 * A nexthop group is added, replaced or deleted. The kernel replaces a group's members and weights
 * in place, but neither its type (plain or resilient) nor a resilient group's bucket count.
 */
public record NexthopGroupChange(Optional<NexthopGroup> before, Optional<NexthopGroup> after) implements DataplaneChange {

    public NexthopGroupChange {
        DataplaneChange.requireOneSide(before, after, "nexthop group");
        if (before.isPresent() && after.isPresent() && !replaceableInPlace(before.get(), after.get())) {
            throw new IllegalArgumentException("nexthop group " + before.get().id()
                    + " cannot change its type or bucket count in place; delete and add it instead");
        }
    }

    public static boolean replaceableInPlace(NexthopGroup from, NexthopGroup to) {
        return from.id() == to.id() && from.resilient() == to.resilient() && (!from.resilient() || from.buckets() == to.buckets());
    }

    public int id() {
        return after.or(() -> before).orElseThrow().id();
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
