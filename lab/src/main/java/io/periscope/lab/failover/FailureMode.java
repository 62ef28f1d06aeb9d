package io.periscope.lab.failover;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How {@code lab fail} fails a node. */
public enum FailureMode {
    /** The node is gone: its agents stop and its links lose carrier (the far end of each of its veths goes down). */
    CRASH("crash"),
    /** Links up, agents running, every packet in and out dropped silently: a hung kernel or a broken firewall. */
    BLACKHOLE("blackhole"),
    /** Only the node's agents stop; what they programmed keeps forwarding. */
    AGENT_STOP("agent-stop");

    private final String text;

    FailureMode(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    public static FailureMode parse(String text) {
        return Arrays.stream(values()).filter(m -> m.text.equals(text)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown failure mode '" + text + "'; the modes are "
                        + Arrays.stream(values()).map(FailureMode::text).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return text;
    }
}
