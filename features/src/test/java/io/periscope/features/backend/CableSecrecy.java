package io.periscope.features.backend;

/**
 * What a backend can say about whether the packets a cable carries between two clusters are hidden
 * on the way: shown (and how), not shown on this backend (and why), or contradicted by what it saw.
 */
public sealed interface CableSecrecy {

    /** The backend showed it; {@code how} says by what evidence, a capture's or the simulator's own account. */
    record Shown(String how) implements CableSecrecy {
    }

    /** This backend cannot show it here, for {@code why}: the scenario is reported so, never passed. */
    record NotShown(String why) implements CableSecrecy {
    }

    /** What the backend saw says otherwise. */
    record Contradicted(String what) implements CableSecrecy {
    }
}
