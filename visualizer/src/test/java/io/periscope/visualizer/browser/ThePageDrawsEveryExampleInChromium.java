package io.periscope.visualizer.browser;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.load.TopologyLoader;
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.export.HtmlExport;
import io.periscope.visualizer.server.RunningServer;
import io.periscope.visualizer.session.Scenario;
import io.periscope.visualizer.session.TraceDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    private RunningServer serve(Path file) throws Exception {
        return browser.serve(new RunningServer(file));
    }

    static List<Path> examples() throws Exception {
        return ExampleFiles.all();
    }

    private void open(String query) {
        browser.chromium().driver.get(browser.running().server.url() + query);
        browser.awaitRevision();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleDrawsItsClustersAndFlows(Path example) throws Exception {
        Path file = Files.copy(example, dir.resolve(example.getFileName()));
        ClusterSet set = TopologyLoader.load(file);
        String name = example.getFileName().toString().replace(".yaml", "");
        serve(file);
        open("");
        assertThat(browser.chromium().await("svg .cluster", set.clusters().size())).hasSize(set.clusters().size());
        long gateways = set.clusters().stream().mapToLong(c -> c.gateways().size()).sum();
        assertThat(browser.chromium().all("svg .host.gateway")).hasSize((int) gateways);
        browser.chromium().screenshot(name + "-topology");
        browser.chromium().find(".tab[data-view=flow]").click();
        if (!set.flows().isEmpty()) {
            assertThat(browser.chromium().await("svg .flow-path.forward", 1)).isNotEmpty();
        }
        browser.chromium().screenshot(name + "-flow");
    }

    @Test
    void magGlobalnetDrawsFourPathsAndTheNatHopShowsTheRewrittenSource() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        serve(file);
        open("?view=flow");
        assertThat(browser.chromium().await("svg .flow-path.forward", 4)).hasSize(4);
        assertThat(browser.chromium().all("svg .flow-path.reply")).hasSize(4);
        // cluster1's gateways SNAT the client's address to one of cluster1's global egress addresses.
        browser.chromium().find(".hop-list li[data-path='0'][data-direction=forward][data-hop='2']").click();
        WebElement details = browser.chromium().await("#hop-details", 1).getFirst();
        assertThat(browser.chromium().find("#hop-title").getText()).isEqualTo("cluster1/gw-1");
        assertThat(details.findElements(org.openqa.selenium.By.cssSelector(".step[data-kind=snat]"))).isNotEmpty();
        WebElement departSource = browser.chromium().find("#hop-details table.packet tr[data-row=depart] td[data-field=src]");
        assertThat(departSource.getText()).startsWith("242.254.1.");
        assertThat(departSource.getAttribute("class")).contains("changed");
        assertThat(browser.chromium().find("#hop-details table.packet tr[data-row=arrive] td[data-field=src]").getText()).isEqualTo("10.0.128.4");
        browser.chromium().screenshot("mag-globalnet-nat-hop");
    }

    @Test
    void failingAGatewayMovesItsFlows() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        serve(file);
        open("?view=whatif");
        browser.chromium().await("#whatif-report tr[data-flow]", 1);
        assertThat(browser.chromium().find("#whatif-report tr[data-flow] td.change").getText()).isEqualTo("keeps");
        assertThat(browser.chromium().all("svg[data-pane=failed] .hop-marker[data-node='cluster2/gw-3']")).isNotEmpty();
        browser.chromium().find("svg[data-pane=failed] .host[data-id='cluster2/gw-3']").click();
        browser.chromium().awaitTrue("the report says the flow moves",
                () -> browser.chromium().all("#whatif-report td.change.moves").size() == 1);
        assertThat(browser.chromium().all("svg[data-pane=failed] .host[data-id='cluster2/gw-3'].failed")).hasSize(1);
        assertThat(browser.chromium().all("svg[data-pane=failed] .hop-marker[data-node='cluster2/gw-3']")).isEmpty();
        assertThat(browser.chromium().all("svg[data-pane=failed] .flow-path.forward")).hasSize(2);
        browser.chromium().screenshot("mag-globalnet-whatif");
        // One picture at a time: before the failure, the four paths.
        browser.chromium().find("#before-after button[data-shows=before]").click();
        browser.chromium().await("svg[data-pane=healthy] .flow-path.forward", 4);
        assertThat(browser.chromium().all("svg[data-pane=failed]")).isEmpty();
    }

    @Test
    void aFlowBrokenBeforeTheFailureIsStillBrokenNotKept() throws Exception {
        // No policy connects client1 and client2: their flow is unreachable with every gateway up.
        Path file = ExampleFiles.copy("client-server.yaml", dir);
        serve(file);
        open("?view=whatif");
        browser.chromium().await("#whatif-report tr[data-flow]", 6);
        browser.chromium().find(".gateway-toggle input[data-id='server/server-gw']").click();
        browser.chromium().awaitTrue("the report says client1-to-db breaks",
                () -> browser.chromium().all("#whatif-report tr[data-flow=client1-to-db] td.change.breaks").size() == 1);
        WebElement unconnected = browser.chromium().find("#whatif-report tr[data-flow=client1-to-client2] td.change");
        assertThat(unconnected.getText()).isEqualTo("still broken");
        assertThat(unconnected.getAttribute("class")).contains("still-broken");
        assertThat(browser.chromium().find("#whatif-report tr[data-flow=client1-to-db] td.before").getText())
                .isEqualTo("client1/client1-gw\nserver/server-gw");
    }

    @Test
    void anInvalidSaveShowsTheErrorWithItsLineAndTheNextGoodSaveDrawsAgain() throws Exception {
        Path file = ExampleFiles.copy("mag-globalnet.yaml", dir);
        String good = Files.readString(file);
        List<String> lines = good.lines().toList();
        int line = lines.indexOf(lines.stream().filter(l -> l.contains("podCIDRs: [10.0.0.0/16]")).findFirst().orElseThrow()) + 1;
        serve(file);
        open("");
        browser.chromium().await("svg .cluster", 2);
        Files.writeString(file, good.replaceFirst("podCIDRs: \\[10.0.0.0/16]", "podCIDRs: [10.0.0.0/33]"));
        browser.chromium().awaitTrue("the error list appears", () -> browser.chromium().find("#errors").isDisplayed());
        assertThat(browser.chromium().find("#workbench").isDisplayed()).isFalse();
        WebElement error = browser.chromium().find("#error-list li");
        assertThat(error.getAttribute("data-line")).isEqualTo(String.valueOf(line));
        assertThat(error.getText()).contains(file.getFileName() + ":" + line + ":").contains("10.0.0.0/33");
        browser.chromium().screenshot("mag-globalnet-invalid-save");
        Files.writeString(file, good);
        browser.chromium().awaitTrue("the picture comes back", () -> browser.chromium().find("#workbench").isDisplayed());
        assertThat(browser.chromium().find("#errors").isDisplayed()).isFalse();
        assertThat(browser.chromium().await("svg .cluster", 2)).hasSize(2);
    }

    @Test
    void aCellOfTheMatrixOpensItsFlow() throws Exception {
        Path file = ExampleFiles.copy("globalnet-egress.yaml", dir);
        serve(file);
        open("?view=reachability");
        List<WebElement> cells = browser.chromium().await("#matrix td.reach", 1);
        assertThat(browser.chromium().all("#matrix td.reach-yes")).isNotEmpty();
        browser.chromium().screenshot("globalnet-egress-reachability");
        WebElement cell = browser.chromium().all("#matrix td.reach-yes").getFirst();
        String source = cell.getAttribute("data-source");
        cell.click();
        browser.chromium().await("svg .flow-path.forward", 1);
        assertThat(String.valueOf(browser.chromium().script("return document.body.dataset.view"))).isEqualTo("flow");
        assertThat(browser.chromium().find("#flow-select").getText()).contains(source);
        assertThat(cells).isNotEmpty();
    }

    @Test
    void theStaticExportOpensFromDiskWithoutAServer() throws Exception {
        ClusterSet set = TopologyLoader.load(ExampleFiles.example("mag-globalnet.yaml"));
        Scenario scenario = Scenario.of(set, List.of());
        ObjectNode document = TraceDocument.of(scenario, scenario.trace(set.flows()));
        Path page = dir.resolve("mag-globalnet.html");
        Files.writeString(page, HtmlExport.render(document));
        browser.chromium().driver.get(page.toUri() + "?view=flow");
        assertThat(browser.chromium().await("svg .flow-path.forward", 4)).hasSize(4);
        assertThat(browser.chromium().find("#status").getText()).isEqualTo("static export");
        assertThat(browser.chromium().find(".tab[data-view=whatif]").isEnabled()).isFalse();
        browser.chromium().screenshot("mag-globalnet-static-export");
    }
}
