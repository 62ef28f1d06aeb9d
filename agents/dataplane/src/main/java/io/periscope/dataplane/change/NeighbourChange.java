package io.periscope.dataplane.change;

import io.periscope.plan.link.Neighbour;

import java.util.Optional;

/** A permanent neighbour entry is added or replaced ({@code neigh replace}) or deleted. */
public record NeighbourChange(Optional<Neighbour> before, Optional<Neighbour> after) implements DataplaneChange {

    public NeighbourChange {
        DataplaneChange.requireOneSide(before, after, "neighbour");
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
