package io.periscope.visualizer.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.visualizer.server.StaticAssets;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code trace --html}: the page that {@code serve} sends, made into one file that needs no server and
 * no network: the style sheet and the scripts inlined, the trace document embedded as
 * {@code window.PERISCOPE_DOCUMENT}. The views that ask the simulator a new question (what if,
 * reachability, a typed flow) are off in it.
 */
public final class HtmlExport {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String STYLE_LINK = "<link rel=\"stylesheet\" href=\"assets/app.css\">";
    private static final String SCRIPT_TAG = "<script src=\"assets/app.js\"></script>";
    /** Every script the page loads from its assets (overview.js before app.js), each inlined where it stood. */
    private static final Pattern ASSET_SCRIPT = Pattern.compile("<script src=\"assets/([a-z0-9-]+\\.js)\"></script>");

    private HtmlExport() {
    }

    /** The page's files, read from the jar once. */
    private static volatile java.util.Map<String, String> assets;

    static java.util.Map<String, String> assets() {
        java.util.Map<String, String> read = assets;
        if (read == null) {
            read = new java.util.HashMap<>();
            for (String name : new String[] {"index.html", "app.css"}) {
                read.put(name, StaticAssets.text(name));
            }
            Matcher scripts = ASSET_SCRIPT.matcher(read.get("index.html"));
            while (scripts.find()) {
                read.put(scripts.group(1), StaticAssets.text(scripts.group(1)));
            }
            assets = read = java.util.Map.copyOf(read);
        }
        return read;
    }

    public static String render(ObjectNode document) {
        java.util.Map<String, String> files = assets();
        String page = files.get("index.html");
        if (!page.contains(STYLE_LINK) || !page.contains(SCRIPT_TAG)) {
            throw new IllegalStateException("index.html no longer links app.css and app.js the way the export expects");
        }
        String json;
        try {
            json = MAPPER.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
        // The document first, before any script that reads it.
        String withDocument = page.replaceFirst("<script src=\"assets/",
                Matcher.quoteReplacement("<script>window.PERISCOPE_DOCUMENT = " + inline(json) + ";</script>\n") + "$0");
        return ASSET_SCRIPT.matcher(withDocument.replace(STYLE_LINK, "<style>\n" + inline(files.get("app.css")) + "\n</style>"))
                .replaceAll(script -> Matcher.quoteReplacement("<script>\n" + inline(files.get(script.group(1))) + "\n</script>"));
    }

    /** Keeps embedded text from closing its element: {@code </} becomes {@code <\/}, the same string in JSON and JavaScript. */
    private static String inline(String text) {
        return text.replace("</", "<\\/");
    }
}
