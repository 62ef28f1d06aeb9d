package io.periscope.dataplane.change;

import io.periscope.plan.routing.NexthopObject;

import java.util.Optional;

/** A nexthop object is added, replaced ({@code nexthop replace}) or deleted. */
public record NexthopObjectChange(Optional<NexthopObject> before, Optional<NexthopObject> after) implements DataplaneChange {

    public NexthopObjectChange {
        DataplaneChange.requireOneSide(before, after, "nexthop");
        if (before.isPresent() && after.isPresent() && before.get().id() != after.get().id()) {
            throw new IllegalArgumentException("nexthop change from id " + before.get().id() + " to " + after.get().id());
        }
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
