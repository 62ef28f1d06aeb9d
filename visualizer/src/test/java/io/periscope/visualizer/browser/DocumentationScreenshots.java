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
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.awt.image.IndexColorModel;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The screenshots in docs/visualizer.md, taken in headless Chromium against a real server and written
 * as palette PNGs (the page has few colours: 256 of them, fewer for the overview's mesh, keep it
 * exact to the eye at a third of the size). Not a test: a main, run by hand from the repository's root with the benchmark's class path:
 * {@code java -cp ... io.periscope.visualizer.browser.DocumentationScreenshots docs/images}.
 * The lab's needs a lab up (root, namespaces) and {@code serve} running as root on the same file:
 * {@code DocumentationScreenshots docs/images --lab http://127.0.0.1:PORT/} probes the file's first flow
 * there and selects cluster1's gateway hop (scripts/documentation-lab-screenshot does all of it).
 */
public final class DocumentationScreenshots {

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/images");
        if (args.length == 3 && args[1].equals("--lab")) {
            try (Chromium chromium = Chromium.start()) {
                lab(chromium, args[2], out.resolve("visualizer-lab.png"));
            }
            return;
        }
        Path work = Files.createTempDirectory("periscope-shots-");
        try {
            try (Chromium chromium = Chromium.start()) {
                shoot(chromium, Path.of("examples/on-premise-vxlan-cloud-wireguard.yaml"), work, "?view=topology", null,
                        out.resolve("visualizer-topology.png"), 256);
                // The flow's first hop that translates an address, selected.
                shoot(chromium, Path.of("examples/mag-globalnet.yaml"), work, "?view=flow",
                        "[...document.querySelectorAll('.hop-list li[data-hop]')].find(li => /snat|dnat/.test(li.querySelector('.kinds').textContent)).click()",
                        out.resolve("visualizer-flow.png"), 256);
                Path file = work.resolve("synthetic-20.yaml");
                Files.writeString(file, TopologyWriter.write(withFlows(new SyntheticClusterSet(20, 4, 2, 8, 2, 0, GlobalnetMode.V2).build())));
                // The faint full mesh blends into many shades: 32 colours keep the picture under 120 KB.
                shoot(chromium, file, work, "", null, out.resolve("visualizer-overview.png"), 32);
            }
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** The lab view of a served file whose lab is up: the first flow probed with real packets, cluster1's first gateway hop selected. */
    private static void lab(Chromium chromium, String url, Path png) throws Exception {
        chromium.driver.get(url + "?view=lab");
        chromium.awaitTrue("the lab is up", () -> Boolean.TRUE.equals(chromium.script(
                "const b = document.getElementById('lab-probe'); return !!b && !b.disabled")));
        chromium.find("#lab-probe").click();
        chromium.await("svg[data-pane=lab] .captured-path.forward", 1);
        chromium.script("const mark = [...document.querySelectorAll('svg[data-pane=lab] .captured-hop')].find(m => /^cluster1\\/gw-/.test(m.dataset.node || ''));"
                + "(mark || document.querySelector('svg[data-pane=lab] .captured-hop')).dispatchEvent(new MouseEvent('click', {bubbles: true}))");
        chromium.awaitTrue("a captured hop selected", () -> Boolean.TRUE.equals(chromium.script(
                "return document.getElementById('details').textContent.includes('captured')")));
        byte[] shot = ((TakesScreenshot) chromium.driver).getScreenshotAs(OutputType.BYTES);
        ImageIO.write(palette(ImageIO.read(new ByteArrayInputStream(shot)), 256), "png", png.toFile());
        System.out.printf("%s: %,d bytes%n", png, Files.size(png));
    }

    private static void shoot(Chromium chromium, Path example, Path work, String query, String then, Path png, int colours)
            throws Exception {
        Path file = example.startsWith(work) ? example : Files.copy(example, work.resolve(example.getFileName()));
        try (RunningServer running = new RunningServer(file)) {
            chromium.driver.get(running.server.url() + query);
            chromium.awaitTrue("the page draws", () -> "1".equals(String.valueOf(chromium.script("return document.body.dataset.revision || ''"))));
            if (then != null) {
                chromium.script(then);
                chromium.await("#hop-title", 1);
            }
            byte[] shot = ((TakesScreenshot) chromium.driver).getScreenshotAs(OutputType.BYTES);
            chromium.driver.get("about:blank");
            ImageIO.write(palette(ImageIO.read(new ByteArrayInputStream(shot)), colours), "png", png.toFile());
            System.out.printf("%s: %,d bytes%n", png, Files.size(png));
        }
    }

    /**
     * The picture in {@code most} colours, each pixel the nearest of them: the most frequent ones that
     * differ clearly from those already taken, so a rare but distinct colour (a drop's red, a cable's
     * orange) gets its own before the many shades of the antialiased lines do.
     */
    static BufferedImage palette(BufferedImage image, int most) {
        Map<Integer, Integer> counts = new HashMap<>();
        int w = image.getWidth(), h = image.getHeight();
        int[] pixels = image.getRGB(0, 0, w, h, null, 0, w);
        for (int p : pixels) {
            counts.merge(p & 0xffffff, 1, Integer::sum);
        }
        List<Integer> byFrequency = counts.entrySet().stream().sorted(Map.Entry.<Integer, Integer>comparingByValue().reversed())
                .map(Map.Entry::getKey).toList();
        List<Integer> colours = new ArrayList<>();
        // Passes with the colours ever less far apart, until the palette is full or holds every colour.
        for (long apart = 3_000; colours.size() < most; apart /= 4) {
            for (int c : byFrequency) {
                if (colours.size() < most && farFromEach(c, colours, apart)) {
                    colours.add(c);
                }
            }
            if (apart == 0) {
                break;
            }
        }
        byte[] r = new byte[colours.size()], g = new byte[colours.size()], b = new byte[colours.size()];
        for (int i = 0; i < colours.size(); i++) {
            r[i] = (byte) (colours.get(i) >> 16);
            g[i] = (byte) (colours.get(i) >> 8);
            b[i] = (byte) (int) colours.get(i);
        }
        BufferedImage indexed = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_INDEXED, new IndexColorModel(8, colours.size(), r, g, b));
        Map<Integer, Integer> nearest = new HashMap<>();
        byte[] data = ((java.awt.image.DataBufferByte) indexed.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < pixels.length; i++) {
            data[i] = (byte) (int) nearest.computeIfAbsent(pixels[i] & 0xffffff, p -> closest(p, colours));
        }
        return indexed;
    }

    private static int closest(int rgb, List<Integer> colours) {
        int best = 0;
        long bestDistance = Long.MAX_VALUE;
        for (int i = 0; i < colours.size(); i++) {
            int c = colours.get(i);
            long distance = distance(rgb, c);
            if (distance < bestDistance) {
                best = i;
                bestDistance = distance;
            }
        }
        return best;
    }

    private static boolean farFromEach(int colour, List<Integer> taken, long apart) {
        return taken.stream().allMatch(t -> distance(colour, t) > apart);
    }

    /** Squared distance between two colours, green weighted most, blue least, as the eye does. */
    private static long distance(int a, int b) {
        long dr = ((a >> 16) & 255) - ((b >> 16) & 255), dg = ((a >> 8) & 255) - ((b >> 8) & 255), db = (a & 255) - (b & 255);
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
    }

    /** A few flows across the set: each from one cluster's first pod to another's own export of its first service. */
    private static ClusterSet withFlows(ClusterSet set) {
        List<Flow> flows = new ArrayList<>();
        int n = set.clusters().size();
        int[][] pairs = {{0, n - 1}, {3, 11}, {5, 14}, {8, 2}, {16, 9}};
        for (int[] pair : pairs) {
            Cluster from = set.clusters().get(pair[0]);
            Cluster to = set.clusters().get(pair[1]);
            Pod pod = from.pods().getFirst();
            var export = to.exports().getFirst();
            Service service = to.service(export.namespace(), export.name()).orElseThrow();
            flows.add(new Flow(from.name() + "-to-" + to.name(), FlowEndpointSyntax.parseSource(from.name() + "/" + pod.namespace() + "/" + pod.name()),
                    FlowEndpointSyntax.parseTarget(to.name() + "." + service.name() + "." + service.namespace() + ".svc.clusterset.local:"
                            + service.ports().getFirst().port()), Protocol.TCP, Optional.empty()));
        }
        // One to a port the service does not open: not delivered, so the overview has a drop to show.
        Cluster from = set.clusters().get(6);
        Cluster to = set.clusters().get(17);
        Pod pod = from.pods().getFirst();
        var export = to.exports().getFirst();
        Service service = to.service(export.namespace(), export.name()).orElseThrow();
        flows.add(new Flow(from.name() + "-to-" + to.name() + "-closed-port", FlowEndpointSyntax.parseSource(from.name() + "/" + pod.namespace() + "/" + pod.name()),
                FlowEndpointSyntax.parseTarget(to.name() + "." + service.name() + "." + service.namespace() + ".svc.clusterset.local:"
                        + (service.ports().getFirst().port() + 1)), Protocol.TCP, Optional.empty()));
        return set.withFlows(flows);
    }
}
