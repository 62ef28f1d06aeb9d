package io.periscope.model.load;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The resolver the loader uses remembers the tags of plain scalars; asked again, it must give the tag
 * SnakeYAML's own resolver gives, for every scalar of the shipped examples and for the texts whose tags
 * YAML 1.1 makes tricky (booleans, octals, sexagesimals, timestamps, the merge key).
 */
class ARememberedTagIsTheOneSnakeYamlGives {

    private static final List<String> TRICKY = List.of("true", "True", "TRUE", "yes", "No", "on", "OFF", "y", "n", "~", "null", "Null", "",
            "0", "010", "08", "0x1F", "0o17", "0b101", "1_000", "+1", "-1", "1:30", "190:20:30", "1e3", "1.5", ".5", "1.", ".inf", "-.Inf",
            ".NaN", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "<<", "=", "10.1.0.0/16", "172.18.0.6",
            "fd00::1", "gw-1", "cluster1/gw-1", "100.1.0.10:53", "1.2.3", "0.0.0.0");

    @Test
    void everyScalarOfTheExamplesAndEveryTrickyTextGetsSnakeYamlsTag() throws IOException {
        List<String> texts = new ArrayList<>(TRICKY);
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                LoaderOptions options = new LoaderOptions();
                scalars(new Composer(new ParserImpl(new StreamReader(Files.readString(file)), options), new Resolver(), options).getSingleNode(),
                        texts);
            }
        }
        assertThat(texts).hasSizeGreaterThan(1_000);

        Resolver snakeYaml = new Resolver();
        RememberingResolver remembering = new RememberingResolver();
        for (int round = 0; round < 2; round++) {
            for (String text : texts) {
                for (boolean implicit : new boolean[] {true, false}) {
                    Tag expected = snakeYaml.resolve(NodeId.scalar, text, implicit);
                    assertThat(remembering.resolve(NodeId.scalar, text, implicit)).as("'%s' (implicit: %s, round %d)", text, implicit, round)
                            .isEqualTo(expected);
                }
            }
        }
        assertThat(remembering.resolve(NodeId.mapping, "", true)).isEqualTo(Tag.MAP);
        assertThat(remembering.resolve(NodeId.sequence, "", true)).isEqualTo(Tag.SEQ);
    }

    private static void scalars(Node node, List<String> into) {
        switch (node) {
            case ScalarNode scalar -> into.add(scalar.getValue());
            case SequenceNode sequence -> sequence.getValue().forEach(each -> scalars(each, into));
            case MappingNode mapping -> {
                for (NodeTuple tuple : mapping.getValue()) {
                    scalars(tuple.getKeyNode(), into);
                    scalars(tuple.getValueNode(), into);
                }
            }
            default -> { }
        }
    }
}
