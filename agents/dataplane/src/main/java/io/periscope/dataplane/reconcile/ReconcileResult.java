package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.diff.DataplaneDiff;

import java.util.List;

/** What one reconcile found different and the programs it ran to fix it (none when nothing differed). */
public record ReconcileResult(DataplaneDiff diff, List<Command> applied) {

    public ReconcileResult {
        applied = List.copyOf(applied);
    }

    public boolean changedAnything() {
        return !applied.isEmpty();
    }
}
