package io.periscope.visualizer.browser;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.load.TopologyLoader;
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.export.HtmlExport;
import io.periscope.visualizer.server.RunningServer;
import io.periscope.visualizer.session.Scenario;
import io.periscope.visualizer.session.TraceDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.WebElement;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page in a real browser: every shipped example drawn, mag-globalnet's four paths, the NAT hop's
 * rewritten source, a failed gateway moving its flow, an invalid save showing its line and the next
 * save drawing again, the matrix opening a flow, and the static export working from disk. Any error
 * on the browser's console fails the test. Screenshots go to target/screenshots.
 */
class ThePageDrawsEveryExampleInChromium {

    static Chromium chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBrowser() {
        chromium = Chromium.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    /** The server of the running test; closed only after the page has been left, so its event stream ends cleanly. */
    RunningServer running;

    private RunningServer serve(Path file) throws Exception {
        running = new RunningServer(file);
        return running;
    }

    @AfterEach
    void noConsoleErrors() {
        if (chromium == null) {
            return;
        }
        try {
            chromium.driver.get("about:blank");
            assertThat(chromium.consoleErrors()).as("errors on the browser's console").isEmpty();
        } finally {
            if (running != null) {
                running.close();
            }
        }
    }

    static List<Path> examples() throws Exception {
        return ExampleFiles.all();
    }

    private void open(String query) {
        chromium.driver.get(running.server.url() + query);
        chromium.awaitTrue("the page draws a revision", () -> !String.valueOf(chromium.script("return document.body.dataset.revision || ''")).isEmpty());
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleDrawsItsClustersAndFlows(Path example) throws Exception {
        Path file = Files.copy(example, dir.resolve(example.getFileName()));
        ClusterSet set = TopologyLoader.load(file);
        String name = example.getFileName().toString().replace(".yaml", "");
        serve(file);
        open("");
        assertThat(chromium.await("svg .cluster", set.clusters().size())).hasSize(set.clusters().size());
        long gateways = set.clusters().stream().mapToLong(c -> c.gateways().size()).sum();
        assertThat(chromium.all("svg .host.gateway")).hasSize((int) gateways);
        chromium.screenshot(name + "-topology");
        chromium.find(".tab[data-view=flow]").click();
        if (!set.flows().isEmpty()) {
            assertThat(chromium.await("svg .flow-path.forward", 1)).isNotEmpty();
        }
        chromium.screenshot(name + "-flow");
    }

    @Test
    void magGlobalnetDrawsFourPathsAndTheNatHopShowsTheRewrittenSource() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        serve(file);
        open("?view=flow");
        assertThat(chromium.await("svg .flow-path.forward", 4)).hasSize(4);
        assertThat(chromium.all("svg .flow-path.reply")).hasSize(4);
        // cluster1's gateways SNAT the client's address to one of cluster1's global egress addresses.
        chromium.find(".hop-list li[data-path='0'][data-direction=forward][data-hop='2']").click();
        WebElement details = chromium.await("#hop-details", 1).getFirst();
        assertThat(chromium.find("#hop-title").getText()).isEqualTo("cluster1/gw-1");
        assertThat(details.findElements(org.openqa.selenium.By.cssSelector(".step[data-kind=snat]"))).isNotEmpty();
        WebElement departSource = chromium.find("#hop-details table.packet tr[data-row=depart] td[data-field=src]");
        assertThat(departSource.getText()).startsWith("242.254.1.");
        assertThat(departSource.getAttribute("class")).contains("changed");
        assertThat(chromium.find("#hop-details table.packet tr[data-row=arrive] td[data-field=src]").getText()).isEqualTo("10.0.128.4");
        chromium.screenshot("mag-globalnet-nat-hop");
    }

    @Test
    void failingAGatewayMovesItsFlows() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        serve(file);
        open("?view=whatif");
        chromium.await("#whatif-report tr[data-flow]", 1);
        assertThat(chromium.find("#whatif-report tr[data-flow] td.change").getText()).isEqualTo("keeps");
        assertThat(chromium.all("svg[data-pane=failed] .hop-marker[data-node='cluster2/gw-3']")).isNotEmpty();
        chromium.find("svg[data-pane=failed] .host[data-id='cluster2/gw-3']").click();
        chromium.awaitTrue("the report says the flow moves",
                () -> chromium.all("#whatif-report td.change.moves").size() == 1);
        assertThat(chromium.all("svg[data-pane=failed] .host[data-id='cluster2/gw-3'].failed")).hasSize(1);
        assertThat(chromium.all("svg[data-pane=failed] .hop-marker[data-node='cluster2/gw-3']")).isEmpty();
        assertThat(chromium.all("svg[data-pane=failed] .flow-path.forward")).hasSize(2);
        assertThat(chromium.all("svg[data-pane=healthy] .flow-path.forward")).hasSize(4);
        chromium.screenshot("mag-globalnet-whatif");
    }

    @Test
    void anInvalidSaveShowsTheErrorWithItsLineAndTheNextGoodSaveDrawsAgain() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        String good = Files.readString(file);
        List<String> lines = good.lines().toList();
        int line = lines.indexOf(lines.stream().filter(l -> l.contains("podCIDRs: [10.0.0.0/16]")).findFirst().orElseThrow()) + 1;
        serve(file);
        open("");
        chromium.await("svg .cluster", 2);
        Files.writeString(file, good.replaceFirst("podCIDRs: \\[10.0.0.0/16]", "podCIDRs: [10.0.0.0/33]"));
        chromium.awaitTrue("the error list appears", () -> chromium.find("#errors").isDisplayed());
        assertThat(chromium.find("#workbench").isDisplayed()).isFalse();
        WebElement error = chromium.find("#error-list li");
        assertThat(error.getAttribute("data-line")).isEqualTo(String.valueOf(line));
        assertThat(error.getText()).contains(file.getFileName() + ":" + line + ":").contains("10.0.0.0/33");
        chromium.screenshot("mag-globalnet-invalid-save");
        Files.writeString(file, good);
        chromium.awaitTrue("the picture comes back", () -> chromium.find("#workbench").isDisplayed());
        assertThat(chromium.find("#errors").isDisplayed()).isFalse();
        assertThat(chromium.await("svg .cluster", 2)).hasSize(2);
    }

    @Test
    void aCellOfTheMatrixOpensItsFlow() throws Exception {
        Path file = ExampleFiles.copy("globalnet-egress.yaml", dir);
        serve(file);
        open("?view=reachability");
        List<WebElement> cells = chromium.await("#matrix td.reach", 1);
        assertThat(chromium.all("#matrix td.reach-yes")).isNotEmpty();
        chromium.screenshot("globalnet-egress-reachability");
        WebElement cell = chromium.all("#matrix td.reach-yes").getFirst();
        String source = cell.getAttribute("data-source");
        cell.click();
        chromium.await("svg .flow-path.forward", 1);
        assertThat(String.valueOf(chromium.script("return document.body.dataset.view"))).isEqualTo("flow");
        assertThat(chromium.find("#flow-select").getText()).contains(source);
        assertThat(cells).isNotEmpty();
    }

    @Test
    void theStaticExportOpensFromDiskWithoutAServer() throws Exception {
        ClusterSet set = TopologyLoader.load(ExampleFiles.example("mag-globalnet.yaml"));
        Scenario scenario = Scenario.of(set, List.of());
        ObjectNode document = TraceDocument.of(scenario, scenario.trace(set.flows()));
        Path page = dir.resolve("mag-globalnet.html");
        Files.writeString(page, HtmlExport.render(document));
        chromium.driver.get(page.toUri() + "?view=flow");
        assertThat(chromium.await("svg .flow-path.forward", 4)).hasSize(4);
        assertThat(chromium.find("#status").getText()).isEqualTo("static export");
        assertThat(chromium.find(".tab[data-view=whatif]").isEnabled()).isFalse();
        chromium.screenshot("mag-globalnet-static-export");
    }
}
