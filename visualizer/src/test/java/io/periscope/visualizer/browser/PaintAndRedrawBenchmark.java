package io.periscope.visualizer.browser;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyLoader;
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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code scripts/benchmark-visualizer}: in headless Chromium, for examples/mag-globalnet.yaml, the
 * first paint after the server is listening (the moment {@code serve} prints its address) against
 * the same page opened from disk as a static export (no server: the baseline), and the redraw after
 * a save against a full reload of the page; then a generated 50-cluster set: its first paint, the
 * size of the document the page loads, and the time to switch to the flow view and draw a flow.
 * Not a test: a main, run by the script, printing medians and ratios.
 */
public final class PaintAndRedrawBenchmark {

    private static final int RUNS = 7;

    public static void main(String[] args) throws Exception {
        Path work = Files.createTempDirectory("periscope-bench-");
        Path mag = Files.copy(Path.of(args.length > 0 ? args[0] : "examples/mag-globalnet.yaml"), work.resolve("mag-globalnet.yaml"));
        try (Chromium chromium = Chromium.start()) {
            Path page = work.resolve("mag-globalnet.html");
            Files.writeString(page, HtmlExport.render(document(TopologyLoader.load(mag))));
            List<Double> staticPaint = new ArrayList<>();
            List<Double> servedPaint = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                chromium.driver.get("about:blank");
                long start = System.currentTimeMillis();
                chromium.driver.get(page.toUri().toString());
                awaitRevision(chromium, "static");
                staticPaint.add(drawnSince(chromium, start));
                chromium.driver.get("about:blank");
                try (RunningServer running = new RunningServer(mag)) {
                    start = System.currentTimeMillis(); // serve prints its address as soon as it listens: now
                    chromium.driver.get(running.server.url());
                    awaitRevision(chromium, "1");
                    servedPaint.add(drawnSince(chromium, start));
                    chromium.driver.get("about:blank");
                }
            }
            report("first paint, mag-globalnet, served (from listening to drawn)", servedPaint,
                    "opened from disk as a static export", staticPaint);

            List<Double> redraw = new ArrayList<>();
            List<Double> reload = new ArrayList<>();
            String original = Files.readString(mag);
            try (RunningServer running = new RunningServer(mag)) {
                chromium.driver.get(running.server.url() + "?view=flow");
                awaitRevision(chromium, "1");
                int revision = 1;
                for (int i = 0; i < RUNS; i++) {
                    long start = System.currentTimeMillis();
                    Files.writeString(mag, original.replace("name: client-to-nginx", "name: client-to-nginx-" + i));
                    revision++;
                    awaitRevision(chromium, String.valueOf(revision));
                    redraw.add(drawnSince(chromium, start));
                    start = System.currentTimeMillis();
                    chromium.driver.navigate().refresh();
                    awaitRevision(chromium, String.valueOf(revision));
                    reload.add(drawnSince(chromium, start));
                }
                chromium.driver.get("about:blank");
            }
            report("redraw after a save, mag-globalnet (save to drawn, through the 100 ms watch)", redraw,
                    "a full reload of the page", reload);

            ClusterSet large = withOneFlow(new SyntheticClusterSet(50, 4, 2, 8, 2, 0, GlobalnetMode.V2).build());
            Path largeFile = work.resolve("synthetic-50.yaml");
            Files.writeString(largeFile, TopologyWriter.write(large));
            long load = System.nanoTime();
            try (RunningServer running = new RunningServer(largeFile)) {
                double serverReady = millis(load);
                int payload = running.get("/api/document").body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                int assets = 0;
                for (String asset : new String[] {"/", "/assets/app.js", "/assets/app.css"}) {
                    assets += running.get(asset).body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                }
                long start = System.currentTimeMillis();
                chromium.driver.get(running.server.url());
                awaitRevision(chromium, "1");
                double paint = drawnSince(chromium, start);
                int clusters = chromium.all("svg .cluster").size();
                start = System.currentTimeMillis();
                chromium.find(".tab[data-view=flow]").click();
                chromium.await("svg .flow-path.forward", 1);
                double flowView = drawnSince(chromium, start);
                int paths = chromium.all("svg .flow-path.forward").size();
                chromium.driver.get("about:blank");
                System.out.printf(Locale.ROOT, "%n50-cluster set (%d clusters, %d hosts, %d cables):%n", large.clusters().size(),
                        large.clusters().stream().mapToInt(c -> c.nodes().size() + c.pods().size()).sum(),
                        large.clusters().size() * (large.clusters().size() - 1) / 2);
                System.out.printf(Locale.ROOT, "  load, plan, layout and trace the file: %.0f ms%n", serverReady);
                System.out.printf(Locale.ROOT, "  page payload: document %,d bytes + page %,d bytes%n", payload, assets);
                System.out.printf(Locale.ROOT, "  first paint: %.0f ms, %d cluster boxes drawn%n", paint, clusters);
                System.out.printf(Locale.ROOT, "  flow view with its paths drawn: %.0f ms, %d forward paths%n", flowView, paths);
            }
        }
    }

    private static ObjectNode document(ClusterSet set) {
        Scenario scenario = Scenario.of(set, List.of());
        return TraceDocument.of(scenario, scenario.trace(set.flows()));
    }

    /** The generated set plus one flow from the first cluster's first pod to the last cluster's first exported service. */
    private static ClusterSet withOneFlow(ClusterSet set) {
        Cluster first = set.clusters().getFirst();
        Cluster last = set.clusters().getLast();
        Pod pod = first.pods().getFirst();
        var export = last.exports().getFirst();
        Service service = last.service(export.namespace(), export.name()).orElseThrow();
        Flow flow = new Flow("first-to-last", FlowEndpointSyntax.parseSource(first.name() + "/" + pod.namespace() + "/" + pod.name()),
                FlowEndpointSyntax.parseTarget(service.name() + "." + service.namespace() + ".svc.clusterset.local:"
                        + service.ports().getFirst().port()), Protocol.TCP, Optional.empty());
        return set.withFlows(List.of(flow));
    }

    private static void awaitRevision(Chromium chromium, String revision) {
        chromium.awaitTrue("revision " + revision + " drawn",
                () -> revision.equals(String.valueOf(chromium.script("return document.body.dataset.revision || ''"))));
    }

    private static double millis(long start) {
        return (System.nanoTime() - start) / 1e6;
    }

    /** From {@code startEpochMillis} (this JVM's clock) to when the page finished drawing (the browser's clock, the same machine's). */
    private static double drawnSince(Chromium chromium, long startEpochMillis) {
        return ((Number) chromium.script("return window.periscopeDrawnAt")).longValue() - startEpochMillis;
    }

    private static void report(String what, List<Double> measured, String baselineName, List<Double> baseline) {
        double median = median(measured);
        double base = median(baseline);
        System.out.printf(Locale.ROOT, "%s: median %.0f ms (first run %.0f ms, %d runs)%n", what, median, measured.getFirst(), measured.size());
        System.out.printf(Locale.ROOT, "  baseline, %s: median %.0f ms; ratio %.2f%n", baselineName, base, median / base);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
