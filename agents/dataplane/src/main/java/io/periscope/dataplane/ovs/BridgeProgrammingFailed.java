package io.periscope.dataplane.ovs;

import io.periscope.dataplane.command.CommandFailedException;

import java.util.List;
import java.util.Optional;

/**
 * A program of {@link OvsBridgeProgrammer#program} failed; what ran before it was undone, unless
 * {@code undoFailure} says the undoing failed too.
 */
public final class BridgeProgrammingFailed extends RuntimeException {

    private final transient List<BridgeChange> applied;
    private final transient Optional<CommandFailedException> undoFailure;

    BridgeProgrammingFailed(CommandFailedException failure, List<BridgeChange> applied, Optional<CommandFailedException> undoFailure) {
        super(failure.getMessage() + (undoFailure.isEmpty() ? "; the " + applied.size() + " changes run before it were undone"
                : "; undoing the " + applied.size() + " changes run before it failed too: " + undoFailure.get().getMessage()), failure);
        this.applied = List.copyOf(applied);
        this.undoFailure = undoFailure;
    }

    public List<BridgeChange> applied() {
        return applied;
    }

    public Optional<CommandFailedException> undoFailure() {
        return undoFailure;
    }
}
