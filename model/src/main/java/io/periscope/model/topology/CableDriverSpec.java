package io.periscope.model.topology;

import java.util.Map;

/** A cable driver with its key/value options (seed 001's {@code CableDriverSpec}). */
public record CableDriverSpec(CableDriver name, Map<String, String> options) {

    public CableDriverSpec {
        options = Map.copyOf(options);
    }

    public static CableDriverSpec of(CableDriver driver) {
        return new CableDriverSpec(driver, Map.of());
    }
}
