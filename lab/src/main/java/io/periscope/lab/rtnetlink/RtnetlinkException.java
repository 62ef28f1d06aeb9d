package io.periscope.lab.rtnetlink;

/** The kernel refused an rtnetlink request, or the socket to it failed; the message names the request. */
public final class RtnetlinkException extends RuntimeException {

    public RtnetlinkException(String message) {
        super(message);
    }
}
