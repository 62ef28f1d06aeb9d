package io.periscope.model.topology;

import java.util.Locale;
import java.util.Optional;

/**
 * The IP protocols that Periscope models. ESP is only ever a Libreswan cable's outer packet (IP
 * protocol 50, when nothing makes Libreswan wrap it in UDP): no flow is written in it.
 */
public enum Protocol {
    TCP(6), UDP(17), ICMP(1), ESP(50);

    private final int number;

    Protocol(int number) {
        this.number = number;
    }

    /** The IP protocol number. */
    public int number() {
        return number;
    }

    public String lowerName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean hasPorts() {
        return this == TCP || this == UDP;
    }

    /** Whether a flow (a topology's, an ad hoc trace's) may use it: ESP is what a cable sends, not what a workload does. */
    public boolean carriesFlows() {
        return this != ESP;
    }

    /** The protocols a flow may use, in the order error messages list them. */
    public static Protocol[] flowProtocols() {
        return new Protocol[] {TCP, UDP, ICMP};
    }

    /** Any protocol by name ({@code -p esp} in a rule, {@code "proto": "esp"} in a trace). */
    public static Optional<Protocol> parse(String text) {
        for (Protocol p : values()) {
            if (p.name().equalsIgnoreCase(text)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** A flow's protocol by name: tcp, udp or icmp. */
    public static Optional<Protocol> parseFlow(String text) {
        return parse(text).filter(Protocol::carriesFlows);
    }
}
