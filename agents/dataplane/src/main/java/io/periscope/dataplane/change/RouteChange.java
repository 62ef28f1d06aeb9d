package io.periscope.dataplane.change;

import io.periscope.plan.routing.Route;

import java.util.Optional;

/** A route is added or replaced ({@code route replace}, same table, destination and metric) or deleted. */
public record RouteChange(Optional<Route> before, Optional<Route> after) implements DataplaneChange {

    public RouteChange {
        DataplaneChange.requireOneSide(before, after, "route");
        if (before.isPresent() && after.isPresent() && !before.get().key().equals(after.get().key())) {
            throw new IllegalArgumentException("route change from " + before.get().key() + " to " + after.get().key());
        }
    }

    public Route.RouteKey key() {
        return after.or(() -> before).orElseThrow().key();
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
