package io.periscope.lab.netns;

/** A network namespace could not be used. */
public final class NamespaceException extends RuntimeException {

    public NamespaceException(String message) {
        super(message);
    }
}
