package io.periscope.visualizer.browser;

import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One headless Chromium for a whole test class (register it as a static field), and the server of the
 * running test. After each test the page is left first, so that the server's event stream ends
 * cleanly, then any error the browser's console logged fails the test, and only then is the server
 * closed. Where Chromium is missing, {@link Chromium#start()} skips the class.
 */
final class ChromiumSession implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {

    private final int width;
    private final int height;
    private final boolean exactViewport;
    private Chromium chromium;

    ChromiumSession() {
        this.width = 1500;
        this.height = 900;
        this.exactViewport = false;
    }

    /** With a page of exactly {@code width} × {@code height} ({@link Chromium#withViewport}). */
    ChromiumSession(int width, int height) {
        this.width = width;
        this.height = height;
        this.exactViewport = true;
    }
    private RunningServer running;

    Chromium chromium() {
        return chromium;
    }

    /** Hands {@code server} to the session, which closes it after the running test. */
    RunningServer serve(RunningServer server) {
        running = server;
        return server;
    }

    /** Serves {@code server} for the running test and opens its page with {@code query} ({@code ""}, {@code "?view=flow"}, ...). */
    void open(RunningServer server, String query) {
        serve(server);
        chromium.driver.get(server.server.url() + query);
    }

    /** Waits until the page has drawn a revision of the document (static exports say {@code static}). */
    void awaitRevision() {
        chromium.awaitTrue("the page draws a revision", () -> !String.valueOf(chromium.script("return document.body.dataset.revision || ''")).isEmpty());
    }

    /** The server the running test last handed to {@link #serve}. */
    RunningServer running() {
        return running;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        chromium = exactViewport ? Chromium.withViewport(width, height) : Chromium.start();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (chromium == null) {
            return;
        }
        try {
            chromium.driver.get("about:blank");
            assertThat(chromium.consoleErrors()).as("errors on the browser's console").isEmpty();
        } finally {
            if (running != null) {
                running.close();
                running = null;
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (chromium != null) {
            chromium.close();
        }
    }
}
