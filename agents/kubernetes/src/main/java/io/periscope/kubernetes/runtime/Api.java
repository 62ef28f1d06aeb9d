package io.periscope.kubernetes.runtime;

/**
 * Which API server a watch reads and an action writes: this cluster's, or the broker's (the two
 * syncs carry objects between them; every other controller has only this cluster's).
 */
public enum Api {
    LOCAL,
    BROKER
}
