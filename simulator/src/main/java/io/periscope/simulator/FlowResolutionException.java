package io.periscope.simulator;

/** A flow names something the cluster set does not have; the message says what, and what exists. */
public final class FlowResolutionException extends Exception {

    private static final long serialVersionUID = 1L;

    public FlowResolutionException(String message) {
        super(message);
    }
}
