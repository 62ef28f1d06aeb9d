package io.periscope.lab.capture;

/** A capture could not be opened or failed while running. */
public final class CaptureException extends RuntimeException {

    public CaptureException(String message) {
        super(message);
    }
}
