package io.periscope.dataplane;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Real outputs of the reader's commands, captured by {@code captured/capture.sh} from a namespace
 * built by hand (seed 004 gateway state plus things that are not Periscope's).
 */
public final class Captured {

    private Captured() {
    }

    public static String read(String name) {
        try (InputStream in = Captured.class.getResourceAsStream("captured/" + name)) {
            if (in == null) {
                throw new IllegalStateException("test resource captured/" + name + " is missing; run captured/capture.sh as root");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
