package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.diff.DataplaneDiff;

import java.util.List;
import java.util.Optional;

/**
 * A reconcile could not apply its diff. The node was then reconciled back to the state read before
 * the attempt; {@link #rollbackFailure()} is present when even that failed, and the node may hold
 * part of the change.
 */
public final class ReconcileException extends RuntimeException {

    private final transient DataplaneDiff attempted;
    private final transient List<Command> applied;
    private final transient DataplaneDiff restore;
    private final Optional<CommandFailedException> rollbackFailure;

    public ReconcileException(CommandFailedException failure, DataplaneDiff attempted, List<Command> applied,
                              DataplaneDiff restore, Optional<CommandFailedException> rollbackFailure) {
        super(message(failure, applied, restore, rollbackFailure), failure);
        this.attempted = attempted;
        this.applied = List.copyOf(applied);
        this.restore = restore;
        this.rollbackFailure = rollbackFailure;
    }

    public CommandFailedException failure() {
        return (CommandFailedException) getCause();
    }

    public DataplaneDiff attempted() {
        return attempted;
    }

    /** The commands that succeeded before the failing one. */
    public List<Command> applied() {
        return applied;
    }

    /** What the rollback found changed and undid. */
    public DataplaneDiff restore() {
        return restore;
    }

    public Optional<CommandFailedException> rollbackFailure() {
        return rollbackFailure;
    }

    public boolean rolledBack() {
        return rollbackFailure.isEmpty();
    }

    private static String message(CommandFailedException failure, List<Command> applied, DataplaneDiff restore,
                                  Optional<CommandFailedException> rollbackFailure) {
        String outcome = rollbackFailure
                .map(f -> "rolling back failed too, so the node may hold part of the change: " + withInput(f))
                .orElse(applied.isEmpty() && restore.isEmpty()
                        ? "nothing had been changed"
                        : "the node was restored to its state before the reconcile (" + restore.changes().size() + " changes undone)");
        return "reconcile failed: " + withInput(failure) + "\n" + outcome;
    }

    /** The failure and the line of the batch (rules, sets, routes) the program stopped at, when it named one. */
    private static String withInput(CommandFailedException failure) {
        return failure.getMessage() + failure.failedInput().map(input -> "\n  at " + input).orElse("");
    }
}
