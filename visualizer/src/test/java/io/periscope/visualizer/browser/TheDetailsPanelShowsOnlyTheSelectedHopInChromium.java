package io.periscope.visualizer.browser;

import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hop details panel and the what-if table in a real browser: the details of a hop go when the
 * tab or the flow changes (they described a path no longer drawn), a path without multipath choices
 * shows no literal {@code null}, and neither the packet table's last column (Globalnet's addresses
 * once pushed {@code proto} out of the panel) nor the what-if table is cut off by its panel.
 */
class TheDetailsPanelShowsOnlyTheSelectedHopInChromium {

    private static final String EXAMPLE = "on-premise-vxlan-cloud-wireguard.yaml";

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    private void open(String query) throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy(EXAMPLE, dir)), query);
        browser.awaitRevision();
    }

    private void selectHop(int hop) {
        browser.chromium().await(".hop-list li[data-path='0'][data-direction=forward][data-hop='" + hop + "']", 1).getFirst().click();
        browser.chromium().await("#hop-title", 1);
    }

    private boolean detailsShowAHop() {
        return !browser.chromium().all("#details #hop-title").isEmpty();
    }

    private void chooseFlow(String selectId, int index) {
        browser.chromium().script("const s = document.getElementById(arguments[0]); s.value = String(arguments[1]);"
                + " s.dispatchEvent(new Event('change'));", selectId, index);
    }

    /** Whether the element's content is wider than the element shows (it would scroll or be cut). */
    private boolean overflows(String id) {
        return (Boolean) browser.chromium().script("const e = document.getElementById(arguments[0]); return e.scrollWidth > e.clientWidth;", id);
    }

    @Test
    void aTabChangeClearsTheSelectedHopsDetails() throws Exception {
        open("?view=flow");
        selectHop(2);
        assertThat(browser.chromium().find("#hop-title").getText()).isEqualTo("onprem1/onprem1-gw");

        browser.chromium().find(".tab[data-view=topology]").click();
        assertThat(detailsShowAHop()).isFalse();
        assertThat(browser.chromium().find("#details").getText()).startsWith("Select a hop");

        browser.chromium().find(".tab[data-view=flow]").click();
        browser.chromium().await(".hop-list li[data-hop]", 1);
        assertThat(detailsShowAHop()).isFalse();
    }

    @Test
    void aFlowChangeClearsTheSelectedHopsDetails() throws Exception {
        open("?view=flow");
        selectHop(1);
        assertThat(browser.chromium().find("#hop-title").getText()).isEqualTo("onprem1/onprem1-worker");

        chooseFlow("flow-select", 2);
        browser.chromium().awaitTrue("the third flow is drawn", () -> browser.chromium().find("#flow-select").getAttribute("value").equals("2"));
        assertThat(detailsShowAHop()).isFalse();
        assertThat(browser.chromium().find("#details").getText()).startsWith("Select a hop");
    }

    @Test
    void aPathWithoutMultipathChoicesShowsNoNull() throws Exception {
        open("?view=flow");
        selectHop(2);

        String details = browser.chromium().find("#details").getText();
        assertThat(details).contains("path 1 of 1").doesNotContain("null").doesNotContain("undefined").doesNotContain("branch");
        assertThat(browser.chromium().find("#sidebar").getText()).doesNotContain("null");
    }

    @Test
    void theProtoColumnOfGlobalnetAddressesFitsTheDetailsPanel() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("mag-globalnet.yaml", dir)), "?view=flow");
        browser.awaitRevision();
        // cluster1/gw-1 on the reply: the VXLAN cable's decap, its tables full of 242.254.x.x addresses.
        browser.chromium().await(".hop-list li[data-path='0'][data-direction=reply][data-hop='3']", 1).getFirst().click();
        assertThat(browser.chromium().await("#hop-title", 1).getFirst().getText()).isEqualTo("cluster1/gw-1");
        assertThat(browser.chromium().all("#hop-details table.packet td[data-field=proto]")).isNotEmpty();
        assertThat(overflows("details")).as("the details panel is wider than it shows").isFalse();
        browser.chromium().screenshot("mag-globalnet-details-fit");
    }

    @Test
    void theWhatIfTableFitsTheSidebar() throws Exception {
        open("?view=whatif");
        browser.chromium().await("#whatif-report tr[data-flow]", 4);
        browser.chromium().find(".gateway-toggle input[data-id='onprem2/onprem2-gw']").click();
        browser.chromium().awaitTrue("the report says a flow breaks", () -> !browser.chromium().all("#whatif-report td.change.breaks").isEmpty());
        // Both ends of the WireGuard cable, before and after.
        assertThat(browser.chromium().find("#whatif-report tr[data-flow=frontend-to-analytics] td.before").getText())
                .isEqualTo("onprem1/onprem1-gw\ncloud/cloud-gw");
        assertThat(browser.chromium().find("#whatif-report tr[data-flow=frontend-to-analytics] td.after").getText())
                .isEqualTo("onprem1/onprem1-gw\ncloud/cloud-gw\n1/1 delivered");
        assertThat(overflows("sidebar")).as("the what-if table is wider than the sidebar shows").isFalse();
        browser.chromium().screenshot("on-premise-whatif-table");
    }
}
