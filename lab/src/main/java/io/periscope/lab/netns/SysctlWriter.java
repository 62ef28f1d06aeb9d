package io.periscope.lab.netns;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes sysctls of a namespace from a thread inside it. {@code /proc/sys/net} shows the network
 * namespace of the thread that opens a file there, so this needs no process per namespace.
 */
public final class SysctlWriter {

    private SysctlWriter() {
    }

    /** Must run on a {@link NamespaceThread} of the namespace meant. */
    public static void write(Map<String, String> settings) {
        settings.forEach((key, value) -> {
            Path file = Path.of("/proc/sys", key.replace('.', '/'));
            try {
                Files.writeString(file, value);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot set " + key + " = " + value + ": " + e.getMessage(), e);
            }
        });
    }

    public static String read(String key) {
        try {
            return Files.readString(Path.of("/proc/sys", key.replace('.', '/'))).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key + ": " + e.getMessage(), e);
        }
    }
}
