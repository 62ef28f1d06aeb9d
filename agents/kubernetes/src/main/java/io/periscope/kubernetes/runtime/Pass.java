package io.periscope.kubernetes.runtime;

import java.util.List;

/**
 * What one pass of a {@link Controller} wants done.
 *
 * @param actions      the API writes, in order, for the {@link StatusWriter}
 * @param comeBackSoon the pass waits on something that is no Kubernetes event (a database that is
 *                     not ready yet, say): the runtime runs another pass after its retry delay
 *                     rather than at the next resync; one such wait at a time
 */
public record Pass(List<Action> actions, boolean comeBackSoon) {

    /** Nothing to write. */
    public static final Pass NOTHING = new Pass(List.of(), false);

    /** Nothing to write, but come back after the retry delay. */
    public static final Pass COME_BACK_SOON = new Pass(List.of(), true);

    public Pass {
        actions = List.copyOf(actions);
    }

    public static Pass writing(List<? extends Action> actions) {
        return new Pass(List.copyOf(actions), false);
    }

    public static Pass writing(Action... actions) {
        return new Pass(List.of(actions), false);
    }
}
