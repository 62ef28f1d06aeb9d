package io.periscope.model.topology;

import java.util.Optional;

/** The cable drivers a connection between two clusters' gateways can use. */
public enum CableDriver {
    LIBRESWAN("libreswan"), WIREGUARD("wireguard"), VXLAN("vxlan");

    private final String yamlName;

    CableDriver(String yamlName) {
        this.yamlName = yamlName;
    }

    public String yamlName() {
        return yamlName;
    }

    public static Optional<CableDriver> parse(String text) {
        for (CableDriver d : values()) {
            if (d.yamlName.equals(text)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }
}
