package io.periscope.visualizer.browser;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.visualizer.ExampleFiles;
import io.periscope.visualizer.export.HtmlExport;
import io.periscope.visualizer.server.RunningServer;
import io.periscope.visualizer.session.Scenario;
import io.periscope.visualizer.session.TraceDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SVG and PNG buttons beside the zoom save the picture as shown: the SVG a document of its own,
 * its look inlined (the page's style sheet does not travel with it), with the hop labels and numbers;
 * the PNG that SVG drawn through a canvas.
 */
class ThePictureSavesAsStandaloneSvgAndPngInChromium {

    @RegisterExtension
    static final ChromiumSession browser = new ChromiumSession();

    @TempDir
    Path dir;

    @Test
    void theSvgIsAStandaloneDocumentWithTheHopLabelsAndThePngIsAPngOfThePicture() throws Exception {
        browser.open(new RunningServer(ExampleFiles.copy("mag-vanilla.yaml", dir)), "?view=flow&flow=client-to-nginx");
        browser.awaitRevision();
        browser.chromium().await("svg .hop-marker", 1);
        // The click is a real download: the browser is told to throw it away, the test reads the link it followed.
        ((ChromeDriver) browser.chromium().driver).executeCdpCommand("Browser.setDownloadBehavior", Map.of("behavior", "deny"));
        @SuppressWarnings("unchecked")
        List<String> hopLabels = (List<String>) browser.chromium().script(
                "return [...document.querySelectorAll('svg.scene .host.on-flow text.name')].map(t => t.textContent)");
        assertThat(hopLabels).hasSizeGreaterThan(3);

        String svgHref = saved("svg");
        assertThat(svgHref).startsWith("data:image/svg+xml;charset=utf-8,");
        String text = URLDecoder.decode(svgHref.substring(svgHref.indexOf(',') + 1), StandardCharsets.UTF_8);
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document svg = factory.newDocumentBuilder().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        Element root = svg.getDocumentElement();
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(root.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(root.getAttribute("viewBox")).isEqualTo(browser.chromium().find("svg.scene").getDomAttribute("viewBox"));
        Set<String> texts = new HashSet<>();
        NodeList all = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        for (int i = 0; i < all.getLength(); i++) {
            texts.add(all.item(i).getTextContent());
        }
        assertThat(texts).containsAll(hopLabels).contains("1", "2");
        // The look is in the file: a path's colour and a label's font size, as the page computed them.
        List<Element> paths = new ArrayList<>();
        NodeList drawn = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "path");
        for (int i = 0; i < drawn.getLength(); i++) {
            Element e = (Element) drawn.item(i);
            if (e.getAttribute("class").startsWith("flow-path")) {
                paths.add(e);
            }
        }
        assertThat(paths).isNotEmpty().allSatisfy(p -> assertThat(p.getAttribute("style")).contains("stroke:rgb(").contains("fill:none"));
        assertThat(text).contains("font-size:10px");

        String pngHref = saved("png");
        assertThat(pngHref).startsWith("data:image/png;base64,");
        byte[] png = Base64.getDecoder().decode(pngHref.substring(pngHref.indexOf(',') + 1));
        assertThat(png).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        assertThat(png.length).isGreaterThan(20_000);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(image.getWidth()).isEqualTo(2 * Integer.parseInt(root.getAttribute("width")));
        assertThat(image.getHeight()).isEqualTo(2 * Integer.parseInt(root.getAttribute("height")));
        assertThat(browser.chromium().find("#export-png").getDomAttribute("download")).isEqualTo("mag-vanilla-flow-client-to-nginx.png");
    }

    @Test
    void theServerlessPageOfTraceHtmlSavesItsPictureToo() throws Exception {
        Path file = ExampleFiles.copy("client-server.yaml", dir);
        ClusterSet set = TopologyLoader.load(file);
        Scenario scenario = Scenario.of(set, List.of());
        Path page = dir.resolve("client-server.html");
        Files.writeString(page, HtmlExport.render(TraceDocument.of(scenario, scenario.trace(set.flows()))));
        browser.chromium().driver.get(page.toUri() + "?view=topology");
        browser.awaitRevision();
        ((ChromeDriver) browser.chromium().driver).executeCdpCommand("Browser.setDownloadBehavior", Map.of("behavior", "deny"));

        // Opened from disk the page has no origin of its own: the canvas must still give its pixels up.
        byte[] png = Base64.getDecoder().decode(saved("png").substring("data:image/png;base64,".length()));
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
        assertThat(ImageIO.read(new ByteArrayInputStream(png)).getWidth()).isGreaterThan(500);
        assertThat(URLDecoder.decode(saved("svg"), StandardCharsets.UTF_8)).contains("client1").contains("server-gw");
    }

    /** Clicks the picture's export link of {@code kind} and answers the address it followed once made. */
    private static String saved(String kind) {
        browser.chromium().find("#export-" + kind).click();
        browser.chromium().awaitTrue("the " + kind + " is made", () -> "yes".equals(browser.chromium().find("#export-" + kind).getDomAttribute("data-made")));
        return browser.chromium().find("#export-" + kind).getDomAttribute("href");
    }
}
