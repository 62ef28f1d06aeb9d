package io.periscope.visualizer.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.visualizer.server.StaticAssets;

/**
 * {@code trace --html}: the page that {@code serve} sends, made into one file that needs no server and
 * no network: the style sheet and the script inlined, the trace document embedded as
 * {@code window.PERISCOPE_DOCUMENT}. The views that ask the simulator a new question (what if,
 * reachability, a typed flow) are off in it.
 */
public final class HtmlExport {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String STYLE_LINK = "<link rel=\"stylesheet\" href=\"assets/app.css\">";
    private static final String SCRIPT_TAG = "<script src=\"assets/app.js\"></script>";

    private HtmlExport() {
    }

    public static String render(ObjectNode document) {
        String page = StaticAssets.text("index.html");
        if (!page.contains(STYLE_LINK) || !page.contains(SCRIPT_TAG)) {
            throw new IllegalStateException("index.html no longer links app.css and app.js the way the export expects");
        }
        String json;
        try {
            json = MAPPER.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
        return page
                .replace(STYLE_LINK, "<style>\n" + inline(StaticAssets.text("app.css")) + "\n</style>")
                .replace(SCRIPT_TAG, "<script>window.PERISCOPE_DOCUMENT = " + inline(json) + ";</script>\n<script>\n"
                        + inline(StaticAssets.text("app.js")) + "\n</script>");
    }

    /** Keeps embedded text from closing its element: {@code </} becomes {@code <\/}, the same string in JSON and JavaScript. */
    private static String inline(String text) {
        return text.replace("</", "<\\/");
    }
}
