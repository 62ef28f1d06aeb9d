package io.periscope.dataplane.iproute;

import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.change.FdbChange;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.MacAddress;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Renders FDB changes as {@code bridge -batch} input: {@code append} for the all-zero MAC, which
 * keeps a list of destinations (seed 004's one entry per peer), {@code replace} for any other MAC,
 * which has one destination (appending a second one is silently ignored by the kernel).
 */
public final class BridgeBatchRenderer {

    private BridgeBatchRenderer() {
    }

    /**
     * The lines for {@code changes}. Deletions on a device in {@code deletedDevices} are left out:
     * deleting the device takes its FDB with it, and the device may already be gone when this runs.
     */
    public static List<String> lines(List<? extends DataplaneChange> changes, Set<String> deletedDevices) {
        List<String> lines = new ArrayList<>();
        for (DataplaneChange change : changes) {
            if (!(change instanceof FdbChange c)) {
                continue;
            }
            FdbEntry entry = c.entry();
            if (c.isRemoval()) {
                if (!deletedDevices.contains(entry.device())) {
                    lines.add("fdb del " + entry.mac() + " dev " + entry.device() + " dst " + entry.destination() + " self");
                }
            } else {
                String verb = entry.mac().equals(MacAddress.ZERO) ? "append" : "replace";
                lines.add("fdb " + verb + " " + entry.mac() + " dev " + entry.device() + " dst " + entry.destination() + " self permanent");
            }
        }
        return lines;
    }

    public static String render(List<? extends DataplaneChange> changes, Set<String> deletedDevices) {
        return lines(changes, deletedDevices).stream().map(line -> line + "\n").collect(Collectors.joining());
    }
}
