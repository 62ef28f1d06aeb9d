package io.periscope.model.load;

import io.periscope.model.topology.ClusterSet;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * docs/topology.md shows complete topologies (yaml blocks whose first line is {@code # example: NAME})
 * and a sample error report; these must stay what the loader really accepts and prints.
 */
class DocumentedTopologiesStayTrue {

    private static final Path DOC = Path.of("..", "docs", "topology.md");
    private static final String EXAMPLE_MARK = "# example: ";

    /** Fenced blocks of the given language, keyed by their first line, in document order. */
    private static Map<String, String> fencedBlocks(String language) throws IOException {
        Map<String, String> blocks = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : Files.readAllLines(DOC)) {
            if (current == null && line.equals("```" + language)) {
                current = new ArrayList<>();
            } else if (current != null && line.equals("```")) {
                blocks.put(current.isEmpty() ? "" : current.getFirst(), String.join("\n", current) + "\n");
                current = null;
            } else if (current != null) {
                current.add(line);
            }
        }
        return blocks;
    }

    @Test
    void everyCompleteExampleLoadsAndCopiesOfShippedExamplesMatchTheFiles() throws IOException, TopologyException {
        Map<String, String> examples = new LinkedHashMap<>();
        fencedBlocks("yaml").forEach((first, text) -> {
            if (first.startsWith(EXAMPLE_MARK)) {
                examples.put(first.substring(EXAMPLE_MARK.length()), text.substring(text.indexOf('\n') + 1));
            }
        });

        assertThat(examples).containsOnlyKeys("two-clusters", "globalnet-egress", "mag-globalnet");
        for (Map.Entry<String, String> example : examples.entrySet()) {
            ClusterSet set = TopologyLoader.parse(example.getValue(), example.getKey() + ".yaml");
            assertThat(set.name()).isEqualTo(example.getKey());
            Path shipped = Path.of("..", "examples", example.getKey() + ".yaml");
            if (Files.exists(shipped)) {
                assertThat(example.getValue()).as("the copy of %s in docs/topology.md", shipped).isEqualTo(Files.readString(shipped));
            }
        }
    }

    @Test
    void theSampleErrorReportIsWhatTheLoaderPrints() throws IOException {
        String broken;
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/documented/broken.yaml"))) {
            broken = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String documented = fencedBlocks("text").entrySet().stream()
                .filter(e -> e.getKey().startsWith("broken.yaml:")).map(Map.Entry::getValue).findFirst().orElseThrow();

        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.parse(broken, "broken.yaml"));

        assertThat(failure.report()).isEqualTo(documented);
    }
}
