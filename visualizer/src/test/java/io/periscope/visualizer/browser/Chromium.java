package io.periscope.visualizer.browser;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

/**
 * Debian's headless Chromium driven through Debian's chromedriver, both named by path so that Selenium
 * never looks for (or downloads) a browser of its own. Tests skip, naming the packages, where either
 * is missing. Every message the page logs at SEVERE (a JavaScript error, a failed request) is kept,
 * and {@link #consoleErrors()} hands them to the test to fail on. Public, and in the module's test-jar, for
 * cli's test of the lab view against a real lab.
 */
public final class Chromium implements AutoCloseable {

    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    public final WebDriver driver;
    private final List<String> errors = new ArrayList<>();
    /** chromedriver's and Chromium's TMPDIR, removed on {@link #close}. */
    private final Path temporary;

    private Chromium(WebDriver driver, Path temporary) {
        this.driver = driver;
        this.temporary = temporary;
    }

    public static Chromium start() {
        return start(1500, 900);
    }

    /**
     * With a page (the viewport, not the window: headless Chromium's window keeps room for a toolbar it
     * does not draw) of exactly {@code width} × {@code height} CSS pixels at one device pixel each.
     */
    public static Chromium withViewport(int width, int height) {
        Chromium chromium = start(width, height);
        ((ChromeDriver) chromium.driver).executeCdpCommand("Emulation.setDeviceMetricsOverride",
                java.util.Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", false));
        return chromium;
    }

    private static Chromium start(int width, int height) {
        Assumptions.assumeTrue(Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER),
                "skipped: the browser tests need Debian's Chromium and its driver at " + BROWSER + " and " + DRIVER
                        + "; install them with: apt-get install chromium chromium-driver (./run-tests does, as root)");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=" + width + "," + height, "--hide-scrollbars", "--allow-file-access-from-files");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        // Chromium leaves its singleton directories (/tmp/org.chromium.Chromium.*) behind when chromedriver
        // ends it, and chromedriver its profile (scoped_dir): about 17 a full run. In a directory of their own
        // they go with the session.
        Path temporary;
        try {
            temporary = Files.createTempDirectory("periscope-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make Chromium's temporary directory", e);
        }
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort()
                .withEnvironment(java.util.Map.of("TMPDIR", temporary.toString())).build();
        try {
            return new Chromium(new ChromeDriver(service, options), temporary);
        } catch (RuntimeException e) {
            delete(temporary);
            throw e;
        }
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    public List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** Waits (up to 20 s) until {@code css} matches at least {@code count} elements. */
    public List<WebElement> await(String css, int count) {
        new WebDriverWait(driver, Duration.ofSeconds(20)).pollingEvery(Duration.ofMillis(20))
                .until(d -> d.findElements(By.cssSelector(css)).size() >= count);
        return all(css);
    }

    public void awaitTrue(String description, java.util.function.BooleanSupplier condition) {
        new WebDriverWait(driver, Duration.ofSeconds(20)).pollingEvery(Duration.ofMillis(20)).withMessage(description)
                .until(d -> condition.getAsBoolean());
    }

    public Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    public void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        File shot = ((org.openqa.selenium.TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** The SEVERE console messages since the last call. */
    public List<String> consoleErrors() {
        for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue()) {
                errors.add(entry.getMessage());
            }
        }
        List<String> seen = List.copyOf(errors);
        errors.clear();
        return seen;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            delete(temporary);
        }
    }

    private static void delete(Path directory) {
        try (var paths = Files.walk(directory)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove Chromium's temporary directory " + directory, e);
        }
    }
}
