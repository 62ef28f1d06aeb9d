package io.periscope.visualizer.browser;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.server.RunningServer;
import io.periscope.visualizer.session.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A NAT badge beside each host where a hop of the flow rewrites an address, one per kind, whose hover
 * text lists each rewrite as before → after: on mag-globalnet, cluster1's gateways SNAT the client to
 * cluster1's global egress range and the service's global ingress IP 242.254.2.254 is DNATed in cluster2,
 * and the badges say exactly what the simulator's steps say.
 */
class TheFlowViewBadgesEachAddressRewriteOnItsHostInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void globalnetsSnatAndTheGlobalIngressDnatAreBadgedOnTheirHostsWithBeforeAndAfter() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        browser.open(new RunningServer(file), "?view=flow&flow=client-to-nginx");
        browser.awaitRevision();
        browser.chromium().await("svg .nat-badge", 1);

        List<Map<String, Object>> badges = (List<Map<String, Object>>) browser.chromium().script("""
                return [...document.querySelectorAll('svg.scene .nat-badge')].map(b => ({node: b.dataset.node, kind: b.dataset.kind,
                  label: b.querySelector('text').textContent, title: b.querySelector('title').textContent}));""");
        Map<String, Set<String>> drawn = new TreeMap<>();
        for (Map<String, Object> badge : badges) {
            assertThat(badge.get("label")).isEqualTo(badge.get("kind"));
            // The title: "KIND at NODE", then a rewrite a line (with the paths that meet it, when the flow has several).
            List<String> lines = ((String) badge.get("title")).lines().toList();
            assertThat(lines.getFirst()).isEqualTo(badge.get("kind") + " at " + badge.get("node"));
            Set<String> rewrites = drawn.computeIfAbsent(badge.get("node") + " " + badge.get("kind"), k -> new TreeSet<>());
            lines.subList(1, lines.size()).forEach(line -> rewrites.add(line.replaceAll(" {2}\\(paths? [0-9, ]+\\)$", "")));
        }

        assertThat(drawn).isEqualTo(simulated(file, "client-to-nginx"));
        assertThat(drawn).anySatisfy((key, rewrites) -> {
            assertThat(key).matches("cluster1/gw-\\d+ SNAT");
            assertThat(rewrites).anyMatch(r -> r.matches("src 10\\.0\\.128\\.4:\\d+ → 242\\.254\\.1\\.\\d+:\\d+"));
        });
        assertThat(drawn).anySatisfy((key, rewrites) -> {
            assertThat(key).startsWith("cluster2/").endsWith(" DNAT");
            assertThat(rewrites).anyMatch(r -> r.startsWith("dst 242.254.2.254:80 → "));
        });
        assertThat(browser.chromium().find("#flow-legend").getText()).contains("SNAT").contains("before → after");
        browser.chromium().screenshot("flow-nat-badges-mag-globalnet");
    }

    /** Per "host kind", each rewrite the simulator's steps make there, as "end before → after", " (reply)" on the reply. */
    private static Map<String, Set<String>> simulated(Path file, String flow) throws Exception {
        ClusterSet set = TopologyLoader.load(file);
        Scenario scenario = Scenario.of(set, List.of());
        Map<String, Set<String>> found = new TreeMap<>();
        for (Scenario.Outcome outcome : scenario.trace(set.flows())) {
            if (!(outcome instanceof Scenario.Traced traced) || !traced.trace().name().equals(flow)) {
                continue;
            }
            FlowTrace trace = traced.trace();
            for (PathTrace path : trace.paths()) {
                for (String direction : List.of("forward", "reply")) {
                    for (Hop hop : direction.equals("forward") ? path.forward() : path.reply()) {
                        Packet before = hop.arrive();
                        for (Step step : hop.steps()) {
                            String kind = switch (step) {
                                case Step.Snat s -> "SNAT";
                                case Step.Dnat d -> "DNAT";
                                case Step.Unsnat u -> "un-SNAT";
                                case Step.Undnat u -> "un-DNAT";
                                default -> null;
                            };
                            Packet after = step.packet();
                            if (kind != null && before.protocol() == after.protocol()
                                    && (before.src().equals(after.src()) || before.dst().equals(after.dst()))) {
                                String suffix = direction.equals("reply") ? " (reply)" : "";
                                Set<String> rewrites = new TreeSet<>();
                                String srcBefore = end(before.src().toString(), before.sport(), before), srcAfter = end(after.src().toString(), after.sport(), after);
                                String dstBefore = end(before.dst().toString(), before.dport(), before), dstAfter = end(after.dst().toString(), after.dport(), after);
                                if (!srcBefore.equals(srcAfter)) {
                                    rewrites.add("src " + srcBefore + " → " + srcAfter + suffix);
                                }
                                if (!dstBefore.equals(dstAfter)) {
                                    rewrites.add("dst " + dstBefore + " → " + dstAfter + suffix);
                                }
                                if (!rewrites.isEmpty()) {
                                    found.computeIfAbsent(hop.node() + " " + kind, k -> new TreeSet<>()).addAll(rewrites);
                                }
                            }
                            if (!(step instanceof Step.Encap)) {
                                before = after;
                            }
                        }
                    }
                }
            }
        }
        return found;
    }

    private static String end(String address, int port, Packet packet) {
        return packet.protocol().hasPorts() ? address + ":" + port : address;
    }
}
