package io.periscope.visualizer.browser;

import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deep links: the page keeps its address up to date with the view, the flow, the selected path and
 * hop, and the gateways failed in the what-if view, and the address opened anew (a link shared, a
 * reload) shows the same picture.
 */
class TheAddressReopensTheSamePictureInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    private String address() {
        return browser.chromium().driver.getCurrentUrl();
    }

    private String query() {
        String url = address();
        return url.substring(url.indexOf('?'));
    }

    private void reopen(String url) {
        browser.chromium().driver.get("about:blank");
        browser.chromium().driver.get(url);
        browser.awaitRevision();
    }

    @Test
    void theFlowPathAndHopClickedAreInTheAddressAndReopenSelected() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("on-premise-vxlan-cloud-wireguard.yaml", dir)), "?view=flow");
        browser.awaitRevision();
        browser.chromium().script("const s = document.getElementById('flow-select'); s.value = '1'; s.dispatchEvent(new Event('change'));");
        browser.chromium().await(".hop-list li[data-path='0'][data-direction=reply][data-hop='2']", 1).getFirst().click();
        String node = browser.chromium().await("#hop-title", 1).getFirst().getText();
        String where = browser.chromium().find("#details .kv").getText();

        assertThat(query()).isEqualTo("?view=flow&flow=frontend-to-analytics&path=1&direction=reply&hop=3");

        reopen(address());
        browser.chromium().await("#hop-title", 1);
        assertThat(browser.chromium().find("#flow-select").getAttribute("value")).isEqualTo("1");
        assertThat(browser.chromium().find("#hop-title").getText()).isEqualTo(node);
        assertThat(browser.chromium().find("#details .kv").getText()).isEqualTo(where).contains("reply, hop 3 of");
        assertThat(browser.chromium().all(".hop-list li.selected[data-path='0'][data-direction=reply][data-hop='2']")).hasSize(1);
        assertThat(query()).isEqualTo("?view=flow&flow=frontend-to-analytics&path=1&direction=reply&hop=3");

        // Another tab: the address follows, without the hop that is no longer shown.
        browser.chromium().find(".tab[data-view=topology]").click();
        assertThat(query()).isEqualTo("?view=topology");
    }

    @Test
    void theGatewaysFailedInTheWhatIfViewAreInTheAddressAndReopenFailed() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("on-premise-vxlan-cloud-wireguard.yaml", dir)), "?view=whatif");
        browser.awaitRevision();
        browser.chromium().await("#whatif-report tr[data-flow]", 4);
        browser.chromium().find(".gateway-toggle input[data-id='onprem2/onprem2-gw']").click();
        browser.chromium().awaitTrue("the report says a flow breaks", () -> !browser.chromium().all("#whatif-report td.change.breaks").isEmpty());
        browser.chromium().script("const s = document.getElementById('whatif-flow'); s.value = '2'; s.dispatchEvent(new Event('change'));");

        assertThat(query()).isEqualTo("?view=whatif&flow=analytics-to-inventory&fail=onprem2/onprem2-gw");

        reopen(address());
        browser.chromium().awaitTrue("the report says a flow breaks", () -> !browser.chromium().all("#whatif-report td.change.breaks").isEmpty());
        assertThat(browser.chromium().find(".gateway-toggle input[data-id='onprem2/onprem2-gw']").isSelected()).isTrue();
        assertThat(browser.chromium().find(".gateway-toggle input[data-id='onprem1/onprem1-gw']").isSelected()).isFalse();
        assertThat(browser.chromium().find("#whatif-flow").getAttribute("value")).isEqualTo("2");
        assertThat(browser.chromium().find("#whatif-report tr[data-flow=analytics-to-inventory] td.change").getText()).isEqualTo("breaks");
        assertThat(browser.chromium().all("svg[data-pane=failed] .host[data-id='onprem2/onprem2-gw'].failed")).hasSize(1);
        assertThat(query()).isEqualTo("?view=whatif&flow=analytics-to-inventory&fail=onprem2/onprem2-gw");
    }
}
