package io.periscope.visualizer.browser;

import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pictures that explain themselves: an arrowhead along every segment of a path, the hop numbers the
 * list uses beside the forward dots, a ✕ with a short reason where a packet is dropped, and path
 * colours that are never a cable's, with a legend saying so.
 */
class TheFlowViewMarksDirectionHopsAndDropsInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    @Test
    void aDroppedFlowHasACrossWithItsReasonWhereItEnds() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("client-server.yaml", dir)), "?view=flow&flow=client2-to-shop");
        browser.awaitRevision();
        WebElement cross = browser.chromium().await("svg .drop-mark[data-path='0']", 1).getFirst();

        String lastHop = browser.chromium().all(".hop-list li[data-path='0'][data-direction=forward]").getLast().getText().split("\n")[0];
        assertThat(cross.getDomAttribute("data-node")).isEqualTo(lastHop);
        // The reason's lines, one tspan each.
        assertThat(browser.chromium().script("return [...arguments[0].querySelectorAll('tspan')].map(t => t.textContent).join(' ')", cross))
                .isEqualTo("no ClusterConnectivityPolicy connects client2 and client1");
        assertThat(browser.chromium().script("return document.querySelector('svg .drop-mark title').textContent"))
                .asString().contains("unreachable at " + lastHop).contains("unreachable by route 'unreachable 100.11.0.0/16");
        assertThat(browser.chromium().all(".tab.selected")).extracting(WebElement::getText).containsExactly("Flow");
        browser.chromium().screenshot("flow-dropped-client2-to-shop");
    }

    @Test
    void everyPathHasArrowsAndHopNumbersInColoursNoCableUses() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("on-premise-vxlan-cloud-wireguard.yaml", dir)), "?view=flow&flow=frontend-to-analytics");
        browser.awaitRevision();
        browser.chromium().await("svg .flow-path", 1);

        List<WebElement> paths = browser.chromium().all("svg .flow-path.forward");
        for (WebElement path : paths) {
            String index = path.getDomAttribute("data-path");
            int dots = browser.chromium().all("svg .hop-marker[data-direction=forward][data-path='" + index + "']").size();
            assertThat(browser.chromium().all("svg .path-arrow.forward[data-path='" + index + "']")).isNotEmpty();
            assertThat(browser.chromium().all("svg .hop-number[data-path='" + index + "']")).extracting(WebElement::getText)
                    .hasSize(dots).contains("1");
        }
        assertThat(browser.chromium().all("svg .drop-mark")).as("a delivered flow has no ✕").isEmpty();

        Set<String> cables = new HashSet<>(strokes("svg .cable"));
        assertThat(cables).isNotEmpty();
        assertThat(strokes("svg .flow-path")).isNotEmpty().doesNotContainAnyElementsOf(cables);
        assertThat(browser.chromium().find("#flow-legend").getText()).contains("✕").contains("hop number").contains("wireguard cable");
        browser.chromium().screenshot("flow-marks-frontend-to-analytics");
    }

    @SuppressWarnings("unchecked")
    private static List<String> strokes(String css) {
        return (List<String>) browser.chromium().script("return [...document.querySelectorAll(arguments[0])].map(e => getComputedStyle(e).stroke)", css);
    }
}
