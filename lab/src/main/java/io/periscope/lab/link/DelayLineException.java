package io.periscope.lab.link;

/** A delay line could not start or run: the namespace, the socket or the kernel's answer, said in the message. */
public final class DelayLineException extends RuntimeException {

    public DelayLineException(String message) {
        super(message);
    }
}
