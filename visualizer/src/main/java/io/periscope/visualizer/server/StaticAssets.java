package io.periscope.visualizer.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The page's files, from the classpath ({@code io/periscope/visualizer/web/}). Only plain names
 * ({@code app.js}) are looked up: no slash, no dot-dot, no percent sign ever reaches the class
 * loader, so no request can name a file outside that folder.
 */
public final class StaticAssets {

    public static final String FOLDER = "io/periscope/visualizer/web/";
    private static final Pattern PLAIN_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*\\.(html|js|css|svg)");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml");

    /** A file and its content type. */
    public record Asset(String name, byte[] content, String contentType) {
    }

    private final Map<String, Optional<Asset>> cache = new ConcurrentHashMap<>();

    public Optional<Asset> find(String name) {
        if (!PLAIN_NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return cache.computeIfAbsent(name, StaticAssets::read);
    }

    /** The text of an asset that ships with the module (for the HTML export). */
    public static String text(String name) {
        return read(name).map(a -> new String(a.content(), java.nio.charset.StandardCharsets.UTF_8))
                .orElseThrow(() -> new IllegalStateException("the visualizer's " + name + " is missing from its jar"));
    }

    private static Optional<Asset> read(String name) {
        try (InputStream in = StaticAssets.class.getClassLoader().getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                return Optional.empty();
            }
            String extension = name.substring(name.lastIndexOf('.') + 1);
            return Optional.of(new Asset(name, in.readAllBytes(), TYPES.get(extension)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
