package io.periscope.visualizer.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.visualizer.export.HtmlExport;
import io.periscope.visualizer.server.RunningServer;
import io.periscope.visualizer.session.Scenario;
import io.periscope.visualizer.session.TraceDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cluster-level overview on a 1600×1000 window: a generated set of 50 clusters (4 nodes each, a
 * full mesh of cables, one flow from the first cluster to the last) opens on it without a view in
 * the address; every cluster is a node whose name renders at 11 px or more inside the picture, every
 * pair of clusters the document cables together is an edge, the flow's counts sit on its two
 * clusters and its cable; a cluster opens the detailed topology framed on it, a cable the flow table
 * filtered to the flows crossing it. A small set still opens on the detailed topology.
 */
class TheOverviewShowsEveryClusterAndOpensOneInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession(1600, 1000);

    @TempDir
    Path dir;

    /** Per cluster label: its name, font size as rendered (CSS size times the screen transform's scale), and whether it lies inside the picture. */
    private static final String MEASURE = """
            const picture = document.querySelector('svg.overview').getBoundingClientRect();
            return [...document.querySelectorAll('svg.overview .overview-cluster text.overview-label')].map(text => {
              const m = text.getScreenCTM(), box = text.getBoundingClientRect();
              return {name: text.parentNode.dataset.name, px: parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b),
                inside: box.left >= picture.left && box.right <= picture.right && box.top >= picture.top && box.bottom <= picture.bottom};
            });""";

    private static final String CLICK = "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))";

    @Test
    @SuppressWarnings("unchecked")
    void at50ClustersTheOverviewIsTheFirstViewAndEveryClusterReads() throws Exception {
        ClusterSet set = firstToLast(new SyntheticClusterSet(50, 4, 2, 8, 2, 0, GlobalnetMode.V2).build());
        Path file = dir.resolve("synthetic-50.yaml");
        Files.writeString(file, TopologyWriter.write(set));
        RunningServer running = browser.serve(new RunningServer(file));
        browser.chromium().driver.get(running.server.url());
        browser.awaitRevision();

        assertThat(browser.chromium().find(".tab.selected").getAttribute("data-view")).isEqualTo("overview");
        assertThat(browser.chromium().driver.getCurrentUrl()).endsWith("?view=overview");
        List<Map<String, Object>> labels = (List<Map<String, Object>>) browser.chromium().script(MEASURE);
        assertThat(labels).extracting(l -> (String) l.get("name"))
                .containsExactlyElementsOf(set.clusters().stream().map(Cluster::name).toList());
        for (Map<String, Object> label : labels) {
            assertThat(((Number) label.get("px")).doubleValue()).as("rendered font size of %s", label.get("name")).isGreaterThanOrEqualTo(11);
            assertThat(label.get("inside")).as("%s inside the picture", label.get("name")).isEqualTo(true);
        }
        List<String> edges = (List<String>) browser.chromium().script(
                "return [...document.querySelectorAll('svg.overview .overview-cable')].map(e => e.dataset.left + '~' + e.dataset.right)");
        assertThat(new HashSet<>(edges)).hasSize(edges.size()).isEqualTo(cabledPairs(running));
        assertThat(edges).hasSize(50 * 49 / 2);
        browser.chromium().screenshot("overview-50-clusters");

        // The one flow: delivered, leaving c0, ending in c49, over the c0–c49 cable and no other.
        assertThat(browser.chromium().find(".overview-cluster[data-name=c0]").getDomAttribute("data-from-delivered")).isEqualTo("1");
        assertThat(browser.chromium().find(".overview-cluster[data-name=c49]").getDomAttribute("data-to-delivered")).isEqualTo("1");
        assertThat(browser.chromium().find(".overview-cluster[data-name=c7]").getDomAttribute("data-from-delivered")).isEqualTo("0");
        assertThat(browser.chromium().all(".overview-cable.crossed")).singleElement()
                .satisfies(e -> assertThat(e.getDomAttribute("data-left") + "~" + e.getDomAttribute("data-right")).isIn("c0~c49", "c49~c0"));
        assertThat(browser.chromium().all(".overview-cable.dropped")).isEmpty();

        // A cluster opens the detailed topology framed on it: its name reads, the address says so.
        browser.chromium().script(CLICK, browser.chromium().find(".overview-cluster[data-name=c7] circle"));
        browser.chromium().await("svg.scene[data-pane=main] .cluster.opened", 1);
        assertThat(browser.chromium().find(".tab.selected").getAttribute("data-view")).isEqualTo("topology");
        assertThat(browser.chromium().find(".cluster.opened").getDomAttribute("data-name")).isEqualTo("c7");
        assertThat(browser.chromium().driver.getCurrentUrl()).endsWith("?view=topology&cluster=c7");
        double px = ((Number) browser.chromium().script("const t = document.querySelector('.cluster.opened text.name');"
                + "return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b)")).doubleValue();
        assertThat(px).as("the opened cluster's name, rendered").isGreaterThanOrEqualTo(11);
        assertThat(framedOnC7()).as("c7's box inside the picture").isTrue();
        browser.chromium().screenshot("overview-50-clusters-opened-c7");

        // The address opens the same picture again.
        browser.chromium().driver.navigate().refresh();
        browser.awaitRevision();
        browser.chromium().await("svg.scene[data-pane=main] .cluster.opened[data-name=c7]", 1);
        assertThat(framedOnC7()).isTrue();

        // The flow's cable opens the table filtered to the flow's paths.
        browser.chromium().find(".tab[data-view=overview]").click();
        browser.chromium().script(CLICK, browser.chromium().await(".overview-cable.crossed .hit", 1).getFirst());
        browser.chromium().await("#flow-table tr.flow-row", 1);
        assertThat(browser.chromium().find(".tab.selected").getAttribute("data-view")).isEqualTo("table");
        assertThat(browser.chromium().find("#table-search").getDomProperty("value")).isEqualTo("cable:c0~c49");
        assertThat(browser.chromium().all("#flow-table tr.flow-row")).isNotEmpty()
                .allSatisfy(row -> assertThat(row.getDomAttribute("data-flow")).isEqualTo("first-to-last"));
        // A cable the flow does not cross matches no path: the word is matched whole, not as a substring.
        browser.chromium().driver.get(running.server.url() + "?view=table&q=cable:c0~c4");
        browser.awaitRevision();
        assertThat(browser.chromium().all("#flow-table tr.flow-row")).isEmpty();
    }

    @Test
    void theServerlessPageOfALargeSetOpensOnTheOverviewToo() throws Exception {
        ClusterSet set = firstToLast(new SyntheticClusterSet(20, 4, 2, 8, 2, 0, GlobalnetMode.V2).build());
        Scenario scenario = Scenario.of(set, List.of());
        Path page = dir.resolve("synthetic-20.html");
        Files.writeString(page, HtmlExport.render(TraceDocument.of(scenario, scenario.trace(set.flows()))));
        browser.chromium().driver.get(page.toUri().toString());
        browser.awaitRevision();

        assertThat(browser.chromium().find(".tab.selected").getAttribute("data-view")).isEqualTo("overview");
        assertThat(browser.chromium().all("svg.overview .overview-cluster")).hasSize(20);
        assertThat(browser.chromium().all("svg.overview .overview-cable")).hasSize(20 * 19 / 2);
    }

    @Test
    void aSmallSetOpensOnTheDetailedTopologyAndHasTheOverviewOnItsTab() throws Exception {
        ClusterSet set = firstToLast(new SyntheticClusterSet(2, 4, 2, 8, 2, 0, GlobalnetMode.V2).build());
        Path file = dir.resolve("synthetic-2.yaml");
        Files.writeString(file, TopologyWriter.write(set));
        RunningServer running = browser.serve(new RunningServer(file));
        browser.chromium().driver.get(running.server.url());
        browser.awaitRevision();
        assertThat(browser.chromium().find(".tab.selected").getAttribute("data-view")).isEqualTo("topology");

        browser.chromium().find(".tab[data-view=overview]").click();
        assertThat(browser.chromium().all("svg.overview .overview-cluster")).hasSize(2);
        assertThat(browser.chromium().all("svg.overview .overview-cable")).hasSize(1);
        assertThat(browser.chromium().all("#overview-clusters tr.overview-row")).hasSize(2);
    }

    /** Whether c7's box lies inside the picture as drawn, and covers a good part of it (framed, not the whole set). */
    private static boolean framedOnC7() {
        return (Boolean) browser.chromium().script("""
                const picture = document.querySelector('svg.scene[data-pane=main]').getBoundingClientRect();
                const box = document.querySelector('.cluster.opened rect.box').getBoundingClientRect();
                return box.left >= picture.left && box.right <= picture.right && box.top >= picture.top && box.bottom <= picture.bottom
                  && box.width * box.height > 0.1 * picture.width * picture.height;""");
    }

    /** The pairs of clusters the served document has cables between, as left~right. */
    private static Set<String> cabledPairs(RunningServer running) throws Exception {
        JsonNode document = new ObjectMapper().readTree(running.get("/api/document").body());
        Set<String> pairs = new HashSet<>();
        for (JsonNode cable : document.path("topology").path("cables")) {
            pairs.add(cable.path("left").asText() + "~" + cable.path("right").asText());
        }
        return pairs;
    }

    /** The set with one flow, from the first cluster's first pod to the last cluster's own export of its first service. */
    private static ClusterSet firstToLast(ClusterSet set) {
        Cluster first = set.clusters().getFirst();
        Cluster last = set.clusters().getLast();
        Pod pod = first.pods().getFirst();
        var export = last.exports().getFirst();
        Service service = last.service(export.namespace(), export.name()).orElseThrow();
        Flow flow = new Flow("first-to-last", FlowEndpointSyntax.parseSource(first.name() + "/" + pod.namespace() + "/" + pod.name()),
                FlowEndpointSyntax.parseTarget(last.name() + "." + service.name() + "." + service.namespace() + ".svc.clusterset.local:"
                        + service.ports().getFirst().port()), Protocol.TCP, Optional.empty());
        return set.withFlows(List.of(flow));
    }
}
