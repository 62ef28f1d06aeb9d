package io.periscope.visualizer.browser;

import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.lab.ScriptedLab;
import io.periscope.visualizer.server.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab view in a real browser, against a lab whose captures are the simulator's paths (see
 * {@link ScriptedLab}; the real lab's turn is cli's {@code TheLabViewProbesARealLabInChromium}):
 * a lab that is down is said so with the command that brings it up and no probe is offered; a probe
 * draws each captured route over the simulated paths, and a captured field that differs is marked
 * on its hop with the field's name. No error on the console.
 */
class TheLabViewDrawsCapturedHopsOverTheSimulatedOnes {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    private void open(ScriptedLab lab) throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("mag-globalnet.yaml", dir), lab), "?view=lab");
        browser.chromium().await("#lab-status", 1);
    }

    @Test
    void aLabThatIsDownIsSaidSoWithTheCommandThatBringsItUp() throws Exception {
        Path file = dir.resolve("mag-globalnet.yaml");
        open(new ScriptedLab(ScriptedLab.down(file)));
        WebElement status = browser.chromium().find("#lab-status");
        assertThat(status.getAttribute("data-condition")).isEqualTo("down");
        assertThat(status.getText()).contains("lab down").contains("no lab of topology");
        assertThat(browser.chromium().find("#lab-command").getText()).isEqualTo("./periscope lab up " + file);
        assertThat(browser.chromium().find("#lab-probe").isEnabled()).isFalse();
        assertThat(browser.chromium().all("svg .captured-path")).isEmpty();
        browser.chromium().screenshot("mag-globalnet-lab-down");
    }

    @Test
    void aProbeDrawsTheCapturedRoutesAndMarksTheFieldThatDiffersOnItsHop() throws Exception {
        ScriptedLab lab = new ScriptedLab(ScriptedLab.up()).tamper(new ScriptedLab.Tamper(1, "forward", 2, "depart.src", "192.0.2.99"));
        open(lab);
        assertThat(browser.chromium().find("#lab-status").getAttribute("data-condition")).isEqualTo("up");
        assertThat(browser.chromium().await("svg[data-pane=lab] .flow-path.forward", 4)).hasSize(4);
        browser.chromium().find("#lab-probe").click();
        List<WebElement> captured = browser.chromium().await("svg[data-pane=lab] .captured-path.forward", 4);
        assertThat(captured).hasSize(4);
        assertThat(browser.chromium().all("svg[data-pane=lab] .captured-path.reply")).hasSize(4);
        assertThat(browser.chromium().all("svg[data-pane=lab] .captured-path.differs")).hasSize(2);
        assertThat(browser.chromium().find("#lab-summary").getAttribute("data-matches")).isEqualTo("false");
        assertThat(browser.chromium().all("#captured-routes li[data-matches=false]")).hasSize(1);
        // One mark, on the third forward hop of the second route: the gateway whose SNAT is reported otherwise.
        List<WebElement> marks = browser.chromium().all("svg[data-pane=lab] .captured-hop.mismatch");
        assertThat(marks).hasSize(1);
        WebElement mark = marks.getFirst();
        assertThat(mark.getAttribute("data-route")).isEqualTo("1");
        assertThat(mark.getAttribute("data-direction")).isEqualTo("forward");
        assertThat(mark.getAttribute("data-hop")).isEqualTo("2");
        String node = mark.getAttribute("data-node");
        assertThat(node).startsWith("cluster1/gw-");
        assertThat(browser.chromium().find("svg[data-pane=lab] .mismatch-label").getText()).isEqualTo("≠ depart.src");
        browser.chromium().script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mark);
        browser.chromium().await("#mismatch", 1);
        assertThat(browser.chromium().find("#hop-title").getText()).isEqualTo(node);
        assertThat(browser.chromium().find("#mismatch").getText()).contains("depart.src").contains("observed 192.0.2.99");
        assertThat(browser.chromium().find("#captured-details table.packet tr[data-row=depart] td[data-field=src]").getText()).isEqualTo("192.0.2.99");
        assertThat(browser.chromium().find("#captured-details tr[data-row='simulated depart'] td[data-field=src]").getAttribute("class")).contains("changed");
        assertThat(browser.chromium().find("#captured-details tr[data-row='simulated depart'] td[data-field=sport]").getAttribute("class"))
                .doesNotContain("changed");
        browser.chromium().screenshot("mag-globalnet-lab-mismatch");
    }
}
