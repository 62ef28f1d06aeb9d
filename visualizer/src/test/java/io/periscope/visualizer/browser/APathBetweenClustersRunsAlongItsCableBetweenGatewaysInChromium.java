package io.periscope.visualizer.browser;

import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cables end at the gateways that terminate them, not at the cluster boxes, and where a path goes from
 * one cluster's gateway to another's, that segment of it has the cable's endpoints: the path lies on
 * the cable it uses.
 */
class APathBetweenClustersRunsAlongItsCableBetweenGatewaysInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    /**
     * Per path and direction, each step between gateways of two clusters: the segment of the path's
     * line whose ends lie on the two gateways' borders (null where there is none), and the distance
     * from its ends to the nearest cable's ends; then every cable's ends, with the gateway each lies on.
     */
    private static final String MEASURE = """
            const scene = document.querySelector('svg.scene[data-pane=main]');
            const box = id => {
              const host = scene.querySelector(`.host[data-id="${id}"]`);
              const [x, y] = host.getAttribute('transform').match(/-?[0-9.]+/g).map(Number);
              const rect = host.querySelector('rect');
              return {id, gateway: host.classList.contains('gateway'), x, y, w: +rect.getAttribute('width'), h: +rect.getAttribute('height')};
            };
            const near = (a, b) => Math.abs(a - b) < 0.5;
            const onBorder = (p, b) => ((near(p.x, b.x) || near(p.x, b.x + b.w)) && p.y > b.y - 0.5 && p.y < b.y + b.h + 0.5)
              || ((near(p.y, b.y) || near(p.y, b.y + b.h)) && p.x > b.x - 0.5 && p.x < b.x + b.w + 0.5);
            const points = text => text.match(/-?[0-9.]+,-?[0-9.]+/g).map(s => { const [x, y] = s.split(',').map(Number); return {x, y}; });
            const cables = [...scene.querySelectorAll('.cable')].map(c => points(c.getAttribute('d'))).map(p => [p[0], p[p.length - 1]]);
            const gateways = [...scene.querySelectorAll('.host.gateway')].map(h => box(h.dataset.id));
            const crossings = [];
            for (const line of scene.querySelectorAll('.flow-path')) {
              const nodes = [...scene.querySelectorAll(`.hop-marker[data-path='${line.dataset.path}'][data-direction=${line.dataset.direction}]`)]
                .map(m => m.dataset.node);
              const along = points(line.getAttribute('d'));
              for (let i = 1; i < nodes.length; i++) {
                const a = box(nodes[i - 1]), b = box(nodes[i]);
                if (!a.gateway || !b.gateway || a.id.split('/')[0] === b.id.split('/')[0]) continue;
                let segment = null;
                // Its ends in a row, or around the control point of a cable that bows apart from another.
                for (let k = 1; k < along.length; k++) {
                  for (const gap of [1, 2]) {
                    if (k >= gap && onBorder(along[k - gap], a) && onBorder(along[k], b)) segment = [along[k - gap], along[k]];
                  }
                }
                // The farther of the two ends from the cable's, whichever way the cable was drawn.
                const apart = (c, s) => Math.min(Math.max(Math.hypot(c[0].x - s[0].x, c[0].y - s[0].y), Math.hypot(c[1].x - s[1].x, c[1].y - s[1].y)),
                  Math.max(Math.hypot(c[1].x - s[0].x, c[1].y - s[0].y), Math.hypot(c[0].x - s[1].x, c[0].y - s[1].y)));
                const distance = segment ? Math.min(...cables.map(c => apart(c, segment))) : null;
                crossings.push({from: a.id, to: b.id, path: line.dataset.path, direction: line.dataset.direction, found: !!segment, distance});
              }
            }
            const ends = cables.map(c => c.map(p => (gateways.find(g => onBorder(p, g)) || {id: null}).id));
            return {crossings, ends};""";

    @Test
    @SuppressWarnings("unchecked")
    void theSegmentBetweenTwoGatewaysHasTheEndpointsOfTheCableItCrosses() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("mag-vanilla.yaml", dir)), "?view=flow&flow=client-to-nginx");
        browser.awaitRevision();
        browser.chromium().await("svg .flow-path.forward", 1);

        Map<String, Object> measured = (Map<String, Object>) browser.chromium().script(MEASURE);
        List<Map<String, Object>> crossings = (List<Map<String, Object>>) measured.get("crossings");
        List<List<String>> ends = (List<List<String>>) measured.get("ends");

        assertThat(crossings).as("the flow goes from cluster1's gateways to cluster2's").isNotEmpty()
                .anyMatch(c -> "forward".equals(c.get("direction"))).anyMatch(c -> "reply".equals(c.get("direction")));
        for (Map<String, Object> crossing : crossings) {
            assertThat(crossing.get("found")).as("a segment from %s to %s on their borders", crossing.get("from"), crossing.get("to")).isEqualTo(true);
            assertThat(((Number) crossing.get("distance")).doubleValue()).as("%s → %s: its ends from the cable's", crossing.get("from"), crossing.get("to"))
                    .isLessThanOrEqualTo(2.0);
        }
        assertThat(ends).isNotEmpty().allSatisfy(cable -> assertThat(cable).as("a cable's ends, each on a gateway").doesNotContainNull()
                .allMatch(id -> id.contains("/")));
        assertThat(ends).allSatisfy(cable -> assertThat(cable.get(0).split("/")[0]).isNotEqualTo(cable.get(1).split("/")[0]));
        browser.chromium().screenshot("flow-along-cables-mag-vanilla");
    }
}
