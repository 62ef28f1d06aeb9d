package io.periscope.visualizer.browser;

import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flow view in a real browser: the flow box names and takes a headless pod's own name, and the hop
 * panel shows the conntrack entry the simulator kept on that host, whose original tuple is the
 * connection's first packet even on a reply hop. Any error on the console fails the test.
 */
class TheFlowViewTracesTypedNamesAndShowsConntrackInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    private void open(String example, String query) throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy(example, dir)), query);
        browser.awaitRevision();
    }

    @Test
    void aHeadlessPodsOwnNameIsOfferedAndTraced() throws Exception {
        open("globalnet-egress.yaml", "?view=flow");
        assertThat(browser.chromium().find("#adhoc-to-forms").getText()).contains("pod.cluster.service.namespace.svc.clusterset.local:port");
        browser.chromium().find("#adhoc-from").sendKeys("east/default/web");
        browser.chromium().find("#adhoc-to").sendKeys("http-0.west.http.myproject.svc.clusterset.local:80");
        browser.chromium().find("#adhoc-trace").click();
        browser.chromium().awaitTrue("the typed flow is chosen", () -> String.valueOf(browser.chromium().script(
                "const s = document.getElementById('flow-select'); return s ? s.textContent : ''")).contains("typed: east/default/web"));
        assertThat(browser.chromium().await("svg .flow-path.forward", 1)).isNotEmpty();
        assertThat(browser.chromium().find("#paths").getText()).contains("delivered").doesNotContain("no address");
        assertThat(browser.chromium().all("svg .hop-marker[data-node='west/myproject/http-0']")).isNotEmpty();
        assertThat(browser.chromium().all("svg .hop-marker[data-node='west/myproject/http-1']")).isEmpty();
        browser.chromium().screenshot("globalnet-egress-typed-headless");
    }

    @Test
    void theHopPanelShowsTheSimulatorsConntrackEntryOnBothWays() throws Exception {
        open("mag-globalnet.yaml", "?view=flow");
        browser.chromium().await("svg .flow-path.forward", 4);

        // Forward, at the gateway that SNATs: a new entry whose reply tuple goes back to the global address.
        browser.chromium().find(".hop-list li[data-path='0'][data-direction=forward][data-hop='2']").click();
        assertThat(browser.chromium().find("#hop-title").getText()).isEqualTo("cluster1/gw-1");
        WebElement created = layer("new", "original");
        assertThat(created.findElement(By.cssSelector(".tuple.original")).getText()).startsWith(CLIENT_FLOW);
        assertThat(created.findElement(By.cssSelector(".tuple.reply")).getText()).startsWith("src=242.254.2.254 dst=242.254.1.");
        assertThat(created.getText()).contains("[SNAT]");

        // The reply through the same gateway: the same entry, found in its reply direction.
        WebElement replyHop = browser.chromium().all(".hop-list li[data-path='0'][data-direction=reply]").stream()
                .filter(li -> li.getText().startsWith("cluster1/gw-1")).findFirst().orElseThrow();
        replyHop.click();
        WebElement found = layer("established", "reply");
        assertThat(found.findElement(By.cssSelector(".tuple.original")).getText()).startsWith(CLIENT_FLOW);
        assertThat(found.getText()).contains("ESTABLISHED");
        browser.chromium().screenshot("mag-globalnet-conntrack-reply-hop");
    }

    /**
     * The selected hop's conntrack card of the pod's flow with that state and direction. A gateway also
     * tracks the tunnels' own UDP (vx-submariner's 4800 in, the cable's port out), as the kernel does, so
     * the hop has more than one card: the flow's is the one whose original tuple starts at the client.
     */
    private static WebElement layer(String state, String direction) {
        List<WebElement> layers = browser.chromium().all("#hop-details .conntrack-layer[data-state=" + state + "][data-direction=" + direction + "]");
        assertThat(layers).as(state + " " + direction + " conntrack entry").isNotEmpty();
        return layers.stream().filter(layer -> layer.findElement(By.cssSelector(".tuple.original")).getText().startsWith(CLIENT_FLOW))
                .findFirst().orElseThrow(() -> new AssertionError("no " + state + " " + direction + " conntrack entry of the flow from "
                        + CLIENT_FLOW + " among " + layers.stream().map(WebElement::getText).toList()));
    }

    private static final String CLIENT_FLOW = "src=10.0.128.4 dst=242.254.2.254";
}
