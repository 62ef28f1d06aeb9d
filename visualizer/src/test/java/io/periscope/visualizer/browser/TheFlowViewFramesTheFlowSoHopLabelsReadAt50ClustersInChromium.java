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
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Zoom-to-flow on a 1600×1000 window: the flow view's first paint shows every hop label of the flow
 * (the name of each host its packets cross) at 11 px or more as rendered, through the picture's
 * current transform, and inside the picture, for generated sets of 2, 20 and 50 clusters of 4 nodes
 * with a flow from the first cluster to the last. The zoom buttons change the view, and selecting a
 * hop keeps it.
 */
class TheFlowViewFramesTheFlowSoHopLabelsReadAt50ClustersInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession(1600, 1000);

    @TempDir
    Path dir;

    /** Per hop label: the host, its font size as rendered (CSS size times the screen transform's scale), and whether it lies inside the picture. */
    private static final String MEASURE = """
            const picture = document.querySelector('svg.scene[data-pane=main]').getBoundingClientRect();
            return [...document.querySelectorAll('svg.scene[data-pane=main] .host.on-flow text.name')].map(text => {
              const m = text.getScreenCTM(), box = text.getBoundingClientRect();
              return {id: text.parentNode.dataset.id, px: parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b),
                inside: box.left >= picture.left && box.right <= picture.right && box.top >= picture.top && box.bottom <= picture.bottom};
            });""";

    @ParameterizedTest(name = "{0} clusters")
    @ValueSource(ints = {2, 20, 50})
    @SuppressWarnings("unchecked")
    void everyHopLabelOfTheFlowRendersAtElevenPixelsOrMoreOnFirstPaint(int clusters) throws Exception {
        ClusterSet set = firstToLast(new SyntheticClusterSet(clusters, 4, 2, 8, 2, 0, GlobalnetMode.V2).build());
        Path file = dir.resolve("synthetic-" + clusters + ".yaml");
        Files.writeString(file, TopologyWriter.write(set));
        browser.open(new RunningServer(file), "?view=flow");
        browser.awaitRevision();
        browser.chromium().await("svg .flow-path.forward", 1);
        assertThat(browser.chromium().script("return [window.innerWidth, window.innerHeight]")).isEqualTo(List.of(1600L, 1000L));

        List<Map<String, Object>> labels = (List<Map<String, Object>>) browser.chromium().script(MEASURE);
        Set<String> hops = new HashSet<>((List<String>) browser.chromium().script(
                "return [...document.querySelectorAll('svg.scene[data-pane=main] .hop-marker')].map(m => m.dataset.node)"));
        browser.chromium().screenshot("flow-" + clusters + "-clusters");

        assertThat(labels).extracting(l -> (String) l.get("id")).containsExactlyInAnyOrderElementsOf(hops);
        assertThat(hops).anyMatch(h -> h.startsWith("c0/")).anyMatch(h -> h.startsWith("c" + (clusters - 1) + "/"));
        for (Map<String, Object> label : labels) {
            assertThat(((Number) label.get("px")).doubleValue()).as("rendered font size of %s", label.get("id")).isGreaterThanOrEqualTo(11);
            assertThat(label.get("inside")).as("%s inside the picture", label.get("id")).isEqualTo(true);
        }
        if (clusters == 50) {
            // The 48 clusters the flow does not cross are left out of the first frame, and the page says so.
            assertThat(browser.chromium().all("svg.scene[data-pane=main] .cluster")).hasSize(2);
            assertThat(browser.chromium().find("#focus-note").getText()).contains("48 others left out");
            browser.chromium().find("#every-cluster").click();
            browser.chromium().await("svg.scene[data-pane=main] .cluster.aside", 48);
            assertThat(browser.chromium().all("svg.scene[data-pane=main] .cluster:not(.aside)")).hasSize(2);
        }
    }

    @Test
    void theZoomButtonsChangeTheViewAndSelectingAHopKeepsIt() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("on-premise-vxlan-cloud-wireguard.yaml", dir)), "?view=flow");
        browser.awaitRevision();
        browser.chromium().await("svg .hop-marker", 1);
        String first = viewBox();

        browser.chromium().find(".zoom[data-zoom=in]").click();
        browser.chromium().find(".zoom[data-zoom=in]").click();
        String zoomed = viewBox();
        assertThat(width(zoomed)).isLessThan(width(first) * 0.6);

        browser.chromium().script("document.querySelector(\"svg .hop-marker[data-path='0'][data-direction=forward][data-hop='1']\")"
                + ".dispatchEvent(new MouseEvent('click', {bubbles: true}))");
        browser.chromium().await("#hop-title", 1);
        assertThat(browser.chromium().all("svg .hop-marker.selected")).hasSize(1);
        assertThat(viewBox()).isEqualTo(zoomed);

        browser.chromium().find(".zoom[data-zoom=out]").click();
        assertThat(width(viewBox())).isGreaterThan(width(zoomed));
        browser.chromium().find(".zoom[data-zoom=fit]").click();
        assertThat(viewBox()).isEqualTo(first);
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

    private static String viewBox() {
        return browser.chromium().find("svg.scene[data-pane=main]").getDomAttribute("viewBox");
    }

    private static double width(String viewBox) {
        return Double.parseDouble(viewBox.split(" ")[2]);
    }
}
