package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code trace --html} and {@code --dot} write the visualizer's picture; {@code serve} stays on this machine unless told. */
class TraceWritesAPageAndDotAndServeListensOnLoopback {

    private static final String MAG = Path.of("..", "examples", "mag-globalnet.yaml").toString();

    @TempDir
    Path dir;

    @Test
    void htmlIsOneFileThatNeedsNoNetwork() throws Exception {
        Path page = dir.resolve("mag.html");
        PeriscopeRun run = PeriscopeRun.of("trace", MAG, "--html", page.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("wrote " + page);
        String html = Files.readString(page);
        assertThat(html).contains("window.PERISCOPE_DOCUMENT = {\"format\":\"periscope-trace\",\"version\":2")
                .contains("\"resolved\":\"242.254.2.254:80\"")
                .doesNotContain("src=\"assets/").doesNotContain("href=\"assets/")
                // The only address in it is the SVG namespace's name, which nothing fetches.
                .doesNotContainPattern("(src|href)=\"(https?:)?//").doesNotContainPattern("url\\(\\s*[\"']?(https?:)?//");
    }

    @Test
    void dotDrawsTheClustersAndEveryPath() {
        PeriscopeRun run = PeriscopeRun.of("trace", MAG, "--dot", "-");
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("digraph \"mag-globalnet\" {")
                .contains("subgraph \"cluster_cluster1\"", "subgraph \"cluster_cluster2\"", "label=\"vxlan\"")
                .contains("client-to-nginx p4").doesNotContain("client-to-nginx p5");
    }

    @Test
    void htmlToAnUnwritablePlaceIsAUsageError() {
        PeriscopeRun run = PeriscopeRun.of("trace", MAG, "--html", dir.resolve("missing/dir/out.html").toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("cannot be written").doesNotContain("Exception");
    }

    @Test
    void serveBindsLoopbackByDefault() {
        String bind = PeriscopeCommand.commandLine().getSubcommands().get("serve").getCommandSpec().findOption("--bind").defaultValue();
        assertThat(bind).isEqualTo("127.0.0.1");
    }

    @Test
    void serveRefusesAMissingFileAndABadPort() {
        PeriscopeRun missing = PeriscopeRun.of("serve", dir.resolve("nope.yaml").toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("no such file");
        PeriscopeRun badPort = PeriscopeRun.of("serve", MAG, "--port", "70000");
        assertThat(badPort.status()).isEqualTo(2);
        assertThat(badPort.err()).contains("--port 70000");
    }
}
