package io.periscope.dataplane.change;

import io.periscope.plan.ipset.IpSet;

import java.util.Optional;

/** An ipset is created, changes members (or type), or is destroyed. */
public record IpSetChange(Optional<IpSet> before, Optional<IpSet> after) implements DataplaneChange {

    public IpSetChange {
        DataplaneChange.requireOneSide(before, after, "ipset");
        if (before.isPresent() && after.isPresent() && !before.get().name().equals(after.get().name())) {
            throw new IllegalArgumentException("ipset change from " + before.get().name() + " to " + after.get().name());
        }
    }

    public String name() {
        return after.or(() -> before).orElseThrow().name();
    }

    @Override
    public Tool tool() {
        return Tool.IPSET;
    }

    @Override
    public boolean isRemoval() {
        return after.isEmpty();
    }
}
