package io.periscope.dataplane.change;

import java.util.Optional;

/**
 * A kernel parameter is set ({@code after} present). A sysctl cannot be removed: when a plan stops
 * naming one, Periscope stops managing it and the kernel keeps its value, so a change with an
 * empty {@code after} only releases it and runs nothing. {@code before} is empty when the
 * parameter does not exist yet (it belongs to a device the same reconcile creates).
 */
public record SysctlChange(String key, Optional<String> before, Optional<String> after) implements DataplaneChange {

    public SysctlChange {
        DataplaneChange.requireOneSide(before, after, "sysctl");
    }

    @Override
    public Tool tool() {
        return Tool.SYSCTL;
    }

    @Override
    public boolean isRemoval() {
        return after.isEmpty();
    }
}
