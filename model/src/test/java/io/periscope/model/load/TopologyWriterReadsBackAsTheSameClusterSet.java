package io.periscope.model.load;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.LinkProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one topology writer: whatever it writes, the loader reads back as the same cluster set. */
class TopologyWriterReadsBackAsTheSameClusterSet {

    private static final Path EXAMPLES = Path.of("..", "examples");

    static Stream<String> everyExample() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("everyExample")
    void everyShippedExample(String name) throws Exception {
        ClusterSet set = TopologyLoader.load(EXAMPLES.resolve(name));

        assertThat(TopologyLoader.parse(TopologyWriter.write(set), name)).isEqualTo(set);
    }

    @Test
    void aGeneratedSetWithGlobalEgressIPsAndClientOnlyPods() throws Exception {
        ClusterSet set = new SyntheticClusterSet(3, 4, 2, 40, 4, 2, GlobalnetMode.V2, 20).build();

        assertThat(TopologyLoader.parse(TopologyWriter.write(set), "synthetic.yaml")).isEqualTo(set);
    }

    @Test
    void aGeneratedLegacySetWithOneGateway() throws Exception {
        ClusterSet set = new SyntheticClusterSet(2, 3, 1, 12, 2, 0, GlobalnetMode.LEGACY).build();

        assertThat(TopologyLoader.parse(TopologyWriter.write(set), "synthetic.yaml")).isEqualTo(set);
    }

    /** Odd figures (a rate that is no round number of any unit, nanosecond delays) come back exactly. */
    @Test
    void linksHashPoliciesAndForcedMssWithOddFigures() throws Exception {
        ClusterSet set = TopologyLoader.parse("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    multipathHashPolicy: l4-inner
                    rpFilter: strict
                    nodes:
                      - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true, tcpClampMss: 1300,
                         uplink: {rate: 1234567bit, delay: 1.000001ms, jitter: 0.5us, loss: 0.125%, queue: 7}}
                  - name: west
                    podCIDRs: [10.2.0.0/16]
                    serviceCIDRs: [10.97.0.0/16]
                    multipathHashPolicy: l3
                    nodes:
                      - {name: gw, ip: 172.20.2.2, cniIP: 10.2.0.1, gateway: true}
                cables:
                  - {between: [west, east], rate: 2.5gbit, delay: 61ms}
                """, "odd.yaml");
        assertThat(set.requireCluster("east").requireNode("gw").link().uplink()).isEqualTo(new LinkProperties(
                OptionalLong.of(1_234_567), Optional.of(Duration.ofNanos(1_000_001)), Optional.of(Duration.ofNanos(500)),
                OptionalDouble.of(0.125), OptionalInt.of(7)));

        String written = TopologyWriter.write(set, "a header\nof two lines");

        assertThat(written).startsWith("# a header\n# of two lines\n");
        assertThat(written).contains("rate: 1.234567mbit", "delay: 1.000001ms", "jitter: 0.5us", "loss: 0.125%", "multipathHashPolicy: l4-inner");
        assertThat(TopologyLoader.parse(written, "odd.yaml")).isEqualTo(set);
    }

    /** What the lab's supervisor reads: a set whose cluster lost every gateway node, which a person's file may not describe. */
    @Test
    void aSetWithFailedGatewaysReadsBackUnvalidated(@TempDir Path directory) throws Exception {
        ClusterSet set = TopologyLoader.load(EXAMPLES.resolve("mag-vanilla.yaml")).withoutNodes(List.of("cluster2/gw-3", "cluster2/gw-4"));
        Path file = directory.resolve("topology.yaml");
        Files.writeString(file, TopologyWriter.write(set));

        assertThat(TopologyLoader.loadWritten(file)).isEqualTo(set);
        assertThatThrownBy(() -> TopologyLoader.load(file)).hasMessageContaining("1 error");
    }
}
