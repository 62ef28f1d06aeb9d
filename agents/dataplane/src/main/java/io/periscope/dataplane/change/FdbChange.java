package io.periscope.dataplane.change;

import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;

import java.util.Optional;

/**
 * A VXLAN forwarding entry is added, replaced or deleted. The all-zero MAC keeps a list of
 * destinations (seed 004's one entry per peer), so its entries are only added and deleted; any
 * other MAC has one destination per device, which a replacement moves ({@code before} and
 * {@code after} for the same device and MAC).
 */
public record FdbChange(Optional<FdbEntry> before, Optional<FdbEntry> after) implements DataplaneChange {

    public FdbChange {
        DataplaneChange.requireOneSide(before, after, "FDB");
        if (before.isPresent() && after.isPresent()) {
            FdbEntry from = before.get();
            FdbEntry to = after.get();
            if (!from.device().equals(to.device()) || !from.mac().equals(to.mac()) || from.mac().equals(MacAddress.ZERO)) {
                throw new IllegalArgumentException("only the destination of a unicast MAC's FDB entry can be replaced, not "
                        + from + " by " + to);
            }
        }
    }

    public static FdbChange add(FdbEntry entry) {
        return new FdbChange(Optional.empty(), Optional.of(entry));
    }

    public static FdbChange delete(FdbEntry entry) {
        return new FdbChange(Optional.of(entry), Optional.empty());
    }

    public FdbEntry entry() {
        return after.or(() -> before).orElseThrow();
    }

    @Override
    public Tool tool() {
        return Tool.BRIDGE;
    }

    @Override
    public boolean isRemoval() {
        return after.isEmpty();
    }
}
