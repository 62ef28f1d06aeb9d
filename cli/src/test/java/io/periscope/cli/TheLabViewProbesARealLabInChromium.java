package io.periscope.cli;

import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.state.LabStateFile;
import io.periscope.visualizer.browser.Chromium;
import io.periscope.visualizer.server.VisualizerServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code serve}'s lab view against a real lab: {@code lab up} of mag-globalnet (under a name of the
 * test's own), the page opened in headless Chromium says the lab is up, its button probes the flow
 * with real packets through {@code lab probe}'s code, and the captured routes are drawn over the
 * simulated paths, every captured hop on a host the simulation crosses and none marked as differing.
 * The lab goes down whatever happens. Needs root (namespaces) and Debian's Chromium; run it under
 * {@code flock /tmp/periscope-lab.lock} where other labs may be built at the same time.
 */
class TheLabViewProbesARealLabInChromium {

    private static final Path EXAMPLE = Path.of("..", "examples", "mag-globalnet.yaml");

    @TempDir
    Path directory;

    @Test
    void aProbeFromThePageDrawsTheCapturedHopsOverTheSimulatedOnesAndTheyMatch() throws Exception {
        assumeTrue(NetworkNamespaces.runningAsRoot(), "skipped: needs root to create the lab's network namespaces (run the tests as root)");
        Chromium chromium = Chromium.start();
        String topology = "clitest-labview-" + ProcessHandle.current().pid();
        Path file = Files.writeString(directory.resolve("lab.yaml"),
                Files.readString(EXAMPLE).replace("name: mag-globalnet", "name: " + topology));
        VisualizerServer server = null;
        try {
            PeriscopeRun up = PeriscopeRun.of("lab", "up", file.toString());
            assertThat(up.status()).as(up.err()).isZero();
            server = VisualizerServer.start(file, InetAddress.getByName("127.0.0.1"), 0, new NamespaceLab(new LabStateFile()));
            chromium.driver.get(server.url() + "?view=lab");
            WebElement status = chromium.await("#lab-status", 1).getFirst();
            assertThat(status.getAttribute("data-condition")).as(status.getText()).isEqualTo("up");
            assertThat(status.getText()).contains("built from " + file.toAbsolutePath());
            int simulated = chromium.await("svg[data-pane=lab] .flow-path.forward", 4).size();
            assertThat(simulated).isEqualTo(4);
            Set<String> simulatedNodes = chromium.all("svg[data-pane=lab] .hop-marker").stream()
                    .map(m -> m.getAttribute("data-node")).collect(Collectors.toSet());

            chromium.find("#lab-probe").click();
            // Real packets in rounds until every simulated path has been taken: seconds, more on a loaded machine.
            new WebDriverWait(chromium.driver, Duration.ofSeconds(180)).pollingEvery(Duration.ofMillis(200))
                    .withMessage("the probe's answer is drawn")
                    .until(d -> !d.findElements(By.cssSelector("#lab-summary")).isEmpty() || !d.findElements(By.cssSelector("#lab-error")).isEmpty());
            assertThat(chromium.all("#lab-error")).as("the probe's refusal").isEmpty();
            WebElement summary = chromium.find("#lab-summary");
            assertThat(summary.getAttribute("data-matches")).as(summary.getText()).isEqualTo("true");
            assertThat(summary.getText()).contains("matches the simulation");

            List<WebElement> captured = chromium.all("svg[data-pane=lab] .captured-path.forward");
            assertThat(captured).isNotEmpty().allMatch(p -> p.getAttribute("class").contains("matches"));
            assertThat(chromium.all("svg[data-pane=lab] .captured-path.reply")).hasSameSizeAs(captured);
            List<WebElement> hops = chromium.all("svg[data-pane=lab] .captured-hop");
            assertThat(hops).isNotEmpty();
            assertThat(hops).extracting(h -> h.getAttribute("data-node")).allMatch(simulatedNodes::contains)
                    .contains("cluster1/default/client", "cluster2/default/nginx-7d4f");
            assertThat(chromium.all("svg[data-pane=lab] .captured-hop.mismatch")).isEmpty();
            assertThat(chromium.all("#captured-routes li[data-matches=true]")).hasSameSizeAs(captured);
            // cluster1's gateway, third hop forward: the SNAT to a global egress address, captured as simulated.
            WebElement gateway = chromium.find("svg[data-pane=lab] .captured-hop[data-direction=forward][data-hop='2']");
            assertThat(gateway.getAttribute("data-node")).startsWith("cluster1/gw-");
            chromium.script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", gateway);
            WebElement details = chromium.await("#captured-details", 1).getFirst();
            assertThat(details.getText()).contains("matches the simulation field by field");
            assertThat(chromium.find("#captured-details tr[data-row=depart] td[data-field=src]").getText()).startsWith("242.254.1.");
            assertThat(chromium.find("#captured-details tr[data-row='simulated depart'] td[data-field=src]").getAttribute("class"))
                    .doesNotContain("changed");
            chromium.screenshot("mag-globalnet-lab-real");

            chromium.driver.get("about:blank");
            assertThat(chromium.consoleErrors()).as("errors on the browser's console").isEmpty();
        } finally {
            chromium.close();
            if (server != null) {
                server.close();
            }
            PeriscopeRun down = PeriscopeRun.of("lab", "down", file.toString());
            assertThat(down.status()).as(down.err()).isZero();
        }
    }
}
