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
 * In mag-globalnet.yaml both clusters have two active gateways in one row, level with each other, so
 * the flow view's four cables (each gateway of cluster1 to each of cluster2) all run along one
 * straight line. Each is drawn apart from the others, bowing by its own depth: no two cables' lines
 * coincide, measured on the lines the browser draws.
 */
class CablesToGatewaysInOneRowAreDrawnApartInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    /**
     * Per cable, its ends; per pair of cables, whether their chords lie on one straight line (the case
     * this is about) and the share of points along the middle 80% of each that lie within 2 px of the
     * other's line (two lines drawn on one another: all of them; two that cross or share an end: a few).
     */
    private static final String MEASURE = """
            const scene = document.querySelector('svg.scene[data-pane=main]');
            const cables = [...scene.querySelectorAll('.cable')].map(c => {
              const length = c.getTotalLength();
              const at = t => { const p = c.getPointAtLength(length * t); return {x: p.x, y: p.y}; };
              return {ends: [at(0), at(1)], middle: Array.from({length: 41}, (_, i) => at(0.1 + 0.8 * i / 40)),
                all: Array.from({length: 401}, (_, i) => at(i / 400)), id: c.dataset.left + '~' + c.dataset.right};
            });
            const distance = (p, line) => Math.min(...line.map(q => Math.hypot(p.x - q.x, p.y - q.y)));
            const collinear = (a, b) => {
              const [p, q] = a.ends;
              const off = r => Math.abs((q.y - p.y) * (r.x - p.x) - (q.x - p.x) * (r.y - p.y)) / (Math.hypot(q.x - p.x, q.y - p.y) || 1);
              return Math.max(off(b.ends[0]), off(b.ends[1])) < 1;
            };
            const pairs = [];
            for (let i = 0; i < cables.length; i++) {
              for (let j = i + 1; j < cables.length; j++) {
                const a = cables[i], b = cables[j];
                const shared = Math.max(a.middle.filter(p => distance(p, b.all) < 2).length / a.middle.length,
                  b.middle.filter(p => distance(p, a.all) < 2).length / b.middle.length);
                pairs.push({cables: i + ' ' + j, chordsInOneLine: collinear(a, b), shared});
              }
            }
            return {count: cables.length, pairs};""";

    @Test
    @SuppressWarnings("unchecked")
    void noTwoCablesBetweenGatewaysInOneRowCoincide() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("mag-globalnet.yaml", dir)), "?view=flow&flow=client-to-nginx");
        browser.awaitRevision();
        browser.chromium().await("svg .flow-path.forward", 1);

        Map<String, Object> measured = (Map<String, Object>) browser.chromium().script(MEASURE);
        List<Map<String, Object>> pairs = (List<Map<String, Object>>) measured.get("pairs");

        assertThat(((Number) measured.get("count")).intValue()).as("a cable per pair of gateways the paths cross between").isEqualTo(4);
        assertThat(pairs).as("cables whose straight chords lie on one line: the gateways are in one row")
                .anyMatch(pair -> Boolean.TRUE.equals(pair.get("chordsInOneLine")));
        assertThat(pairs).allSatisfy(pair -> assertThat(((Number) pair.get("shared")).doubleValue())
                .as("cables %s: share of one's line lying on the other's", pair.get("cables")).isLessThan(0.25));
        browser.chromium().screenshot("cables-apart-mag-globalnet");
    }
}
