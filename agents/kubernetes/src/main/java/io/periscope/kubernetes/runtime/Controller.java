package io.periscope.kubernetes.runtime;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.List;

/**
 * A level-driven controller as the {@link ControllerRuntime} runs it. Its {@link #pass} looks at
 * everything (a {@link Snapshot} of the informers' caches, whatever events there were) and returns
 * the API writes that make the world agree with it, which the runtime's {@link StatusWriter}
 * carries out; it never writes to the API itself, and a write that does not go through is simply
 * found again by a later pass.
 *
 * <p>Effects that are no API write stay in the pass, at the controller's edge: the node agents
 * program their node's kernel through the dataplane {@code Reconciler}, the network plugin syncer
 * the OVN northbound database, the DNS server swaps its zone. Those are level-driven comparisons of
 * their own (the reconciler reads the kernel back; the syncer's programmer reads the database), not
 * writes a status writer could replay, and what they did is what the pass then reports in status.
 * Each such controller plans first with a pure function and hands only the plan to that edge.
 */
public interface Controller {

    /** What the runtime does about a write the API refused. */
    enum Refused {
        /** The refusal is an answer the pass expected (a 409 on a create the informer had not seen yet, say): nothing to do. */
        IGNORE,
        /** Logged; the next pass runs at once and looks again. */
        PASS_AGAIN,
        /** The pass fails after its other writes and runs again after the runtime's retry delay. */
        RETRY_LATER
    }

    /** One pass: the writes (and whether to come back soon) for the world as {@code snapshot} shows it. */
    Pass pass(Snapshot snapshot);

    /** What a refusal of {@code action} means; by default the next pass looks again at once. */
    default Refused refused(Action action, KubernetesClientException refusal) {
        return Refused.PASS_AGAIN;
    }

    /**
     * Called once the passes have stopped, before the lease is released and the informers close:
     * the controller closes what its passes used (health probers, a DNS server).
     */
    default void stopped() {
    }

    /**
     * The writes to make on the way out, from the last view of the caches, after the lease was
     * released; a refusal is only logged.
     */
    default List<Action> closing(Snapshot last) {
        return List.of();
    }
}
