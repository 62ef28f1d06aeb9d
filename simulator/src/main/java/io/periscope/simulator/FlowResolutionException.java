package io.periscope.simulator;

/**
 * A flow names something the cluster set does not have; the message says what, and what exists.
 * {@link NameNotAnswered} is the one case that is a fair question rather than a mistake.
 */
public sealed class FlowResolutionException extends Exception permits NameNotAnswered {

    private static final long serialVersionUID = 1L;

    public FlowResolutionException(String message) {
        super(message);
    }
}
