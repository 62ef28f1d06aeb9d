package io.periscope.model.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * SnakeYAML's own reader copies the unread rest of its window for every 1,024 characters it reads, so
 * a single long comment or scalar cost time and memory quadratic in its length (a one-line file of
 * 16 MiB: 107 s and 1.36 GB). {@link InMemoryStreamReader} reads the text once. The timeouts bound a
 * regression to the quadratic reader (minutes at these sizes), they are not timings.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OneLongLineIsReadInOnePass {

    private static final int LARGEST = (int) TopologyFileLimits.MAX_FILE_BYTES;

    @Test
    void aCommentAsLongAsTheLargestFileIsRead() {
        String text = "#" + "x".repeat(LARGEST - 2) + "\n";

        assertThat(onlyError(text).problem()).isEqualTo("the file is empty");
    }

    @Test
    void aQuotedNameAsLongAsTheLargestFileIsRead() {
        String text = "name: \"" + "x".repeat(LARGEST - 9) + "\"\n";

        assertThat(onlyError(text).problem()).contains("missing required field 'clusters'");
    }

    @Test
    void marksAreThoseOfSnakeYamlsOwnReader() {
        String text = "\uFEFFname: t\r\nclusters:\r\n  - name: \"a\u00e9\uD83D\uDE00b\"\r  # c\u2028\n"
                + "    nodes: [{name: n, ip: 1.2.3.4}]\n    labels: |\n      one\n      two\n\u0085x: 'y'\n";

        assertThat(marks(new InMemoryStreamReader(text))).isEqualTo(marks(new StreamReader(text)));
    }

    private static List<String> marks(StreamReader reader) {
        LoaderOptions options = new LoaderOptions();
        Node root = new Composer(new ParserImpl(reader, options), new Resolver(), options).getSingleNode();
        List<String> marks = new ArrayList<>();
        collect(root, marks);
        return marks;
    }

    private static void collect(Node node, List<String> marks) {
        Mark start = node.getStartMark();
        Mark end = node.getEndMark();
        marks.add(start.getIndex() + ":" + start.getLine() + ":" + start.getColumn() + "-"
                + end.getIndex() + ":" + end.getLine() + ":" + end.getColumn());
        if (node instanceof MappingNode mapping) {
            for (NodeTuple tuple : mapping.getValue()) {
                collect(tuple.getKeyNode(), marks);
                collect(tuple.getValueNode(), marks);
            }
        } else if (node instanceof SequenceNode sequence) {
            sequence.getValue().forEach(each -> collect(each, marks));
        }
    }

    private static TopologyError onlyError(String text) {
        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.parse(text, "long.yaml"));
        assertThat(failure).isNotNull();
        assertThat(failure.errors()).hasSize(1);
        return failure.errors().getFirst();
    }
}
