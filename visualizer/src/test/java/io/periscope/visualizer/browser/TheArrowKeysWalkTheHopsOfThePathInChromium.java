package io.periscope.visualizer.browser;

import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In the flow view the arrow keys walk the selected path's hops as the hop list orders them, forward
 * then reply: right and down the next, left and up the previous. Each step selects the hop in the
 * picture, shows its details and writes it into the address.
 */
class TheArrowKeysWalkTheHopsOfThePathInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    @Test
    void rightAndDownSelectTheNextHopLeftAndUpThePreviousWithDetailsAndAddress() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("mag-vanilla.yaml", dir)), "?view=flow&flow=client-to-nginx");
        browser.awaitRevision();
        browser.chromium().await("svg .hop-marker", 1);
        List<String> forward = nodes("forward");
        List<String> reply = nodes("reply");
        assertThat(forward).hasSizeGreaterThan(2);
        assertThat(reply).isNotEmpty();

        press(Keys.ARROW_RIGHT);
        assertSelected("forward", 1, forward.getFirst());
        press(Keys.ARROW_RIGHT);
        press(Keys.ARROW_DOWN);
        assertSelected("forward", 3, forward.get(2));
        press(Keys.ARROW_LEFT);
        assertSelected("forward", 2, forward.get(1));
        // Past the last forward hop comes the reply's first.
        for (int i = 2; i <= forward.size(); i++) {
            press(Keys.ARROW_DOWN);
        }
        assertSelected("reply", 1, reply.getFirst());
        press(Keys.ARROW_UP);
        assertSelected("forward", forward.size(), forward.getLast());
    }

    @Test
    void keysTypedIntoTheFormStayThere() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("mag-vanilla.yaml", dir)), "?view=flow&flow=client-to-nginx");
        browser.awaitRevision();
        browser.chromium().await("svg .hop-marker", 1);
        WebElement from = browser.chromium().find("#adhoc-from");
        from.sendKeys("ab", Keys.ARROW_LEFT, "c");

        assertThat(from.getDomProperty("value")).isEqualTo("acb");
        assertThat(browser.chromium().all("svg .hop-marker.selected")).isEmpty();
        assertThat(browser.chromium().driver.getCurrentUrl()).doesNotContain("hop=");
    }

    private static void press(Keys key) {
        new Actions(browser.chromium().driver).sendKeys(key).perform();
    }

    private static List<String> nodes(String direction) {
        return browser.chromium().all(".hop-list li[data-path='0'][data-direction=" + direction + "]").stream()
                .map(li -> li.getText().split("\n")[0]).toList();
    }

    /** Hop {@code hop} (from 1) of the first path's {@code direction}: marked in the picture, in the details and in the address. */
    private static void assertSelected(String direction, int hop, String node) {
        browser.chromium().awaitTrue("hop " + hop + " of " + direction + " in the address",
                () -> browser.chromium().driver.getCurrentUrl().endsWith("&path=1&direction=" + direction + "&hop=" + hop));
        List<WebElement> marked = browser.chromium().all("svg .hop-marker.selected");
        assertThat(marked).hasSize(1);
        assertThat(marked.getFirst().getDomAttribute("data-direction")).isEqualTo(direction);
        assertThat(marked.getFirst().getDomAttribute("data-hop")).isEqualTo(String.valueOf(hop - 1));
        assertThat(browser.chromium().find("#hop-title").getText()).isEqualTo(node);
        assertThat(browser.chromium().find("#hop-details").isDisplayed()).isTrue();
        assertThat(browser.chromium().all(".hop-list li.selected")).extracting(li -> li.getText().split("\n")[0]).containsExactly(node);
    }
}
