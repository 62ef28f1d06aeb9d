package io.periscope.lab;

/**
 * The lab will not do what was asked, for a reason the user can fix (not root, addresses the machine
 * uses, a lab already up). The message says what and how; the command line prints it without a
 * stack trace and exits 2.
 */
public final class LabRefusal extends RuntimeException {

    public LabRefusal(String message) {
        super(message);
    }
}
