package io.periscope.visualizer.browser;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What-if at 20 clusters: the gateways in a list a search box narrows (every word against
 * cluster/node) rather than a checkbox each down the sidebar, the failed ones as chips, and one
 * picture, after the failure or before it as the switch says, rather than two half-size panes. The
 * address keeps the failed gateways.
 */
class TheWhatIfSearchesItsGatewaysAndTogglesBeforeAndAfterInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession(1600, 1000);

    @TempDir
    Path dir;

    @Test
    void theSearchNarrowsTheGatewaysAndTheSwitchShowsTheFailureOrNot() throws Exception {
        Path file = dir.resolve("synthetic-20.yaml");
        Files.writeString(file, TopologyWriter.write(lastToFirst(new SyntheticClusterSet(20, 4, 2, 8, 2, 0, GlobalnetMode.V2).build())));
        browser.open(new RunningServer(file), "?view=whatif");
        browser.awaitRevision();
        browser.chromium().await("#whatif-report tr[data-flow]", 1);
        int every = browser.chromium().all("#gateway-list .gateway-toggle").size();
        assertThat(every).isGreaterThanOrEqualTo(20);

        browser.chromium().find("#gateway-search").sendKeys("c19");
        List<String> shown = browser.chromium().all("#gateway-list .gateway-toggle").stream().map(l -> l.getDomAttribute("data-id")).toList();
        assertThat(shown).isNotEmpty().hasSizeLessThan(every).allMatch(id -> id.startsWith("c19/"));
        assertThat(browser.chromium().find("#gateway-count").getText()).isEqualTo(shown.size() + " of " + every + " gateways");
        assertThat(browser.chromium().script("return document.activeElement.id")).isEqualTo("gateway-search");

        // Fail every gateway of c19, the flow's first cluster, one after the other.
        for (String gateway : shown) {
            browser.chromium().find("#gateway-list input[data-id='" + gateway + "']").click();
            browser.chromium().await("#failed-chips .chip[data-id='" + gateway + "']", 1);
        }
        browser.chromium().awaitTrue("the report says the flow breaks", () -> !browser.chromium().all("#whatif-report td.change.breaks").isEmpty());
        assertThat(browser.chromium().find("#gateway-search").getDomProperty("value")).as("the search stays").isEqualTo("c19");
        assertThat(browser.chromium().driver.getCurrentUrl()).contains("fail=" + shown.getFirst());

        // After: one picture, the gateways failed in it.
        assertThat(browser.chromium().all("svg.scene")).hasSize(1);
        assertThat(browser.chromium().find("#before-after button.selected").getDomAttribute("data-shows")).isEqualTo("after");
        for (String gateway : shown) {
            assertThat(browser.chromium().find("svg[data-pane=failed] .host[data-id='" + gateway + "']").getDomAttribute("data-state")).isEqualTo("failed");
        }
        browser.chromium().screenshot("whatif-20-clusters-after");

        browser.chromium().find("#before-after button[data-shows=before]").click();
        browser.chromium().await("svg[data-pane=healthy]", 1);
        assertThat(browser.chromium().all("svg.scene")).hasSize(1);
        assertThat(browser.chromium().find("svg[data-pane=healthy] .host[data-id='" + shown.getFirst() + "']").getDomAttribute("data-state")).isNotEqualTo("failed");
        assertThat(browser.chromium().all("svg[data-pane=healthy] .hop-marker[data-node^='c19/']")).isNotEmpty();

        browser.chromium().find("#before-after button[data-shows=after]").click();
        browser.chromium().await("svg[data-pane=failed]", 1);
        assertThat(browser.chromium().all("svg[data-pane=failed] .hop-marker[data-node='" + shown.getFirst() + "']")).isEmpty();

        // A chip brings its gateway back.
        WebElement chip = browser.chromium().find("#failed-chips .chip[data-id='" + shown.getFirst() + "']");
        chip.click();
        browser.chromium().awaitTrue("the chip is gone", () -> browser.chromium().all("#failed-chips .chip[data-id='" + shown.getFirst() + "']").isEmpty());
        assertThat(browser.chromium().find("#gateway-list input[data-id='" + shown.getFirst() + "']").isSelected()).isFalse();
    }

    /** The set with one flow, from the last cluster's first pod to the first cluster's own export of its first service. */
    private static ClusterSet lastToFirst(ClusterSet set) {
        Cluster from = set.clusters().getLast();
        Cluster to = set.clusters().getFirst();
        Pod pod = from.pods().getFirst();
        var export = to.exports().getFirst();
        Service service = to.service(export.namespace(), export.name()).orElseThrow();
        Flow flow = new Flow("last-to-first", FlowEndpointSyntax.parseSource(from.name() + "/" + pod.namespace() + "/" + pod.name()),
                FlowEndpointSyntax.parseTarget(to.name() + "." + service.name() + "." + service.namespace() + ".svc.clusterset.local:"
                        + service.ports().getFirst().port()), Protocol.TCP, Optional.empty());
        return set.withFlows(List.of(flow));
    }
}
