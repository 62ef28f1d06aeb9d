package io.periscope.visualizer.browser;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TunnelGateways;
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.export.HtmlExport;
import io.periscope.visualizer.server.RunningServer;
import io.periscope.visualizer.session.Scenario;
import io.periscope.visualizer.session.TraceDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flow table: a row per path of every flow, and its CSV export, which the page builds from the
 * document it has (so it works in trace --html's page too), says what the simulator found: the
 * disposition, the gateways crossed, each address translation with the end it rewrote, and the drop
 * reason. The filters narrow the rows and the exports alike; a row opens its flow.
 */
class TheFlowTableExportsWhatTheSimulatorFoundInChromium {

    private static final List<String> COLUMNS = List.of("flow", "path", "from", "to", "disposition", "gateways", "nat", "reason");

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"client-server.yaml", "mag-globalnet.yaml", "on-premise-vxlan-cloud-wireguard.yaml"})
    void theCsvExportHasARowPerSimulatedPathWithItsDispositionGatewaysNatAndReason(String example) throws Exception {
        Path file = ExampleFiles.copy(example, dir);
        browser.open(new RunningServer(file), "?view=table");
        browser.awaitRevision();
        browser.chromium().await("#flow-table tr.flow-row", 1);

        List<List<String>> csv = csv(exported("#table-csv"));

        assertThat(csv.getFirst()).containsExactlyElementsOf(COLUMNS);
        assertThat(csv.subList(1, csv.size())).containsExactlyElementsOf(simulated(file));
        assertThat(browser.chromium().all("#flow-table tr.flow-row")).hasSize(csv.size() - 1);
        browser.chromium().screenshot("table-" + example.replace(".yaml", ""));
    }

    @Test
    void theDispositionFilterAndTheSearchNarrowTheRowsAndTheExportsAndStayInTheAddress() throws Exception {
        Path file = ExampleFiles.copy("client-server.yaml", dir);
        List<List<String>> all = simulated(file);
        browser.open(new RunningServer(file), "?view=table");
        browser.awaitRevision();
        browser.chromium().await("#flow-table tr.flow-row", all.size());

        browser.chromium().script("const s = document.getElementById('table-show'); s.value = 'not-delivered'; s.dispatchEvent(new Event('change'));");
        List<List<String>> notDelivered = all.stream().filter(row -> !row.get(4).equals("delivered")).toList();
        assertThat(notDelivered).isNotEmpty().hasSizeLessThan(all.size());
        assertThat(browser.chromium().all("#flow-table tr.flow-row")).hasSize(notDelivered.size());
        assertThat(csv(exported("#table-csv")).subList(1, notDelivered.size() + 1)).containsExactlyElementsOf(notDelivered);

        browser.chromium().find("#table-search").sendKeys("client2 gw");
        List<List<String>> searched = notDelivered.stream().filter(row -> String.join(" ", row).contains("client2") && String.join(" ", row).contains("gw")).toList();
        assertThat(searched).isNotEmpty().hasSizeLessThan(notDelivered.size());
        assertThat(browser.chromium().all("#flow-table tr.flow-row")).hasSize(searched.size());
        assertThat(csv(exported("#table-csv"))).hasSize(searched.size() + 1);
        // The search box keeps its focus while the rows change under it.
        assertThat(browser.chromium().script("return document.activeElement.id")).isEqualTo("table-search");
        String json = exported("#table-json");
        assertThat(json).contains("\"format\": \"periscope-flow-table\"");
        for (List<String> row : searched) {
            assertThat(json).contains("\"flow\": \"" + row.getFirst() + "\"");
        }
        assertThat(browser.chromium().driver.getCurrentUrl()).endsWith("?view=table&show=not-delivered&q=client2%20gw");
    }

    @Test
    void clickingARowOpensItsFlowAndPathInTheFlowView() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("on-premise-vxlan-cloud-wireguard.yaml", dir)), "?view=table");
        browser.awaitRevision();
        browser.chromium().await("#flow-table tr.flow-row[data-flow=frontend-to-analytics]", 1).getFirst().click();

        browser.chromium().await("#hop-title", 1);
        assertThat(browser.chromium().find(".tab.selected").getAttribute("data-view")).isEqualTo("flow");
        assertThat(browser.chromium().find("#flow-select option:checked").getText()).startsWith("frontend-to-analytics:");
        assertThat(browser.chromium().driver.getCurrentUrl()).endsWith("?view=flow&flow=frontend-to-analytics&path=1&direction=forward&hop=1");
    }

    @Test
    void theServerlessPageOfTraceHtmlHasTheTableAndItsExports() throws Exception {
        Path file = ExampleFiles.copy("client-server.yaml", dir);
        ClusterSet set = TopologyLoader.load(file);
        Scenario scenario = Scenario.of(set, List.of());
        Path page = dir.resolve("client-server.html");
        Files.writeString(page, HtmlExport.render(TraceDocument.of(scenario, scenario.trace(set.flows()))));
        browser.chromium().driver.get(page.toUri() + "?view=table");
        browser.awaitRevision();

        assertThat(csv(exported("#table-csv")).subList(1, simulated(file).size() + 1)).containsExactlyElementsOf(simulated(file));
        assertThat(browser.chromium().find("#table-json").getAttribute("download")).isEqualTo("client-server-flows.json");
    }

    /** The text of an export link: a data: address the page built. */
    private static String exported(String css) {
        String href = browser.chromium().find(css).getAttribute("href");
        assertThat(href).startsWith("data:");
        return URLDecoder.decode(href.substring(href.indexOf(',') + 1), StandardCharsets.UTF_8);
    }

    /** The rows the simulator's own traces give, in the table's columns. */
    private static List<List<String>> simulated(Path file) throws Exception {
        ClusterSet set = TopologyLoader.load(file);
        Scenario scenario = Scenario.of(set, List.of());
        List<List<String>> rows = new ArrayList<>();
        for (Scenario.Outcome outcome : scenario.trace(set.flows())) {
            if (!(outcome instanceof Scenario.Traced traced)) {
                throw new AssertionError("every flow of the examples traces: " + outcome);
            }
            FlowTrace trace = traced.trace();
            String to = trace.resolved().isEmpty() ? trace.to() : trace.resolved();
            for (int i = 0; i < trace.paths().size(); i++) {
                PathTrace path = trace.paths().get(i);
                rows.add(List.of(trace.name(), (i + 1) + "/" + trace.paths().size(), trace.from(), to, path.disposition().yamlName(),
                        String.join(" ", TunnelGateways.crossedBy(path)), String.join("; ", translations(path)), path.reason().orElse("")));
            }
        }
        return rows;
    }

    /** Each address translation's steps as the table words them: the end rewritten, before → after, and where. */
    private static List<String> translations(PathTrace path) {
        List<String> found = new ArrayList<>();
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
                    if (kind != null && before.protocol() == after.protocol() && (before.src().equals(after.src()) || before.dst().equals(after.dst()))) {
                        String where = " at " + hop.node() + (direction.equals("reply") ? " (reply)" : "");
                        String srcBefore = end(before.src().toString(), before.sport(), before), srcAfter = end(after.src().toString(), after.sport(), after);
                        String dstBefore = end(before.dst().toString(), before.dport(), before), dstAfter = end(after.dst().toString(), after.dport(), after);
                        if (!srcBefore.equals(srcAfter)) {
                            found.add(kind + " src " + srcBefore + " → " + srcAfter + where);
                        }
                        if (!dstBefore.equals(dstAfter)) {
                            found.add(kind + " dst " + dstBefore + " → " + dstAfter + where);
                        }
                    }
                    if (!(step instanceof Step.Encap)) {
                        before = after;
                    }
                }
            }
        }
        return found;
    }

    private static String end(String address, int port, Packet packet) {
        return packet.protocol().hasPorts() ? address + ":" + port : address;
    }

    /** RFC 4180: fields quoted where they hold a comma, a quote or a line break; CRLF between records. */
    private static List<List<String>> csv(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
            } else if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                record.add(field.toString());
                field.setLength(0);
                records.add(record);
                record = new ArrayList<>();
                i++;
            } else {
                field.append(c);
            }
        }
        assertThat(field).as("the export ends with CRLF").isEmpty();
        return records;
    }
}
