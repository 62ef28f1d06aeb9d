package io.periscope.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version Maven filtered into {@code version.properties} at build time, plus the Java runtime,
 * because "which JDK did the launcher pick" is the first question when something behaves oddly.
 */
public final class PeriscopeVersion implements IVersionProvider {

    private static final String RESOURCE = "version.properties";

    @Override
    public String[] getVersion() {
        return new String[] {
            "periscope " + projectVersion(),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ", " + System.getProperty("java.home") + ")"
        };
    }

    public static String projectVersion() {
        try (InputStream in = PeriscopeVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the build");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
