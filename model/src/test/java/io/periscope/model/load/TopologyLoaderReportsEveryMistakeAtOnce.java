package io.periscope.model.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A file is checked in full: mistakes of every kind are reported together, in file order, while a
 * mistake's consequences elsewhere (a pod on a node that was left out) are not reported a second time.
 */
class TopologyLoaderReportsEveryMistakeAtOnce {

    private static TopologyException failureOf(String yaml) {
        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.parse(yaml, "topology.yaml"));
        assertThat(failure).as("the topology must be refused").isNotNull();
        return failure;
    }

    @Test
    void threeDifferentMistakesAreAllReportedInFileOrder() {
        TopologyException failure = failureOf("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                      - {name: worker, ip: 172.20.1.3, cniIP: 10.1.1.1, gatway: true}
                    pods:
                      - {name: client, node: gw, ip: 10.9.0.5}
                flows:
                  - {name: f, from: east/default/client, to: 10.1.0.9, protocol: tcp}
                """);

        assertThat(failure.errors()).extracting(TopologyError::line, TopologyError::path).containsExactly(
                org.assertj.core.groups.Tuple.tuple(7, "clusters[0].nodes[1].gatway"),
                org.assertj.core.groups.Tuple.tuple(9, "clusters[0].pods[0].ip"),
                org.assertj.core.groups.Tuple.tuple(11, "flows[0].to"));
        assertThat(failure.errors().get(0).problem()).contains("unknown field 'gatway'");
        assertThat(failure.errors().get(1).problem()).contains("outside cluster east's podCIDRs");
        assertThat(failure.errors().get(2).problem()).contains("has no destination port");
        assertThat(failure.getMessage()).isEqualTo("3 errors in topology.yaml");
    }

    @Test
    void theReportNamesFileLineColumnPathAndFixOfEachMistake() {
        TopologyException failure = failureOf("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.1/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}]
                """);

        assertThat(failure.report()).startsWith("topology.yaml:3:16: clusters[0].podCIDRs[0]: '10.1.0.1/16' has host bits set")
                .contains("fix: write 10.1.0.0/16");
    }

    @Test
    void aPodOnANodeThatWasLeftOutIsNotReportedAgain() {
        TopologyException failure = failureOf("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}
                      - {name: worker, ip: 172.20.1.333, cniIP: 10.1.1.1}
                    pods:
                      - {name: client, node: worker, ip: 10.1.1.10}
                flows:
                  - {name: f, from: east/worker, to: 10.1.0.9:80}
                """);

        assertThat(failure.errors()).singleElement().extracting(TopologyError::path).isEqualTo("clusters[0].nodes[1].ip");
    }

    @Test
    void aClusterWhoseOnlyGatewayWasLeftOutIsNotCalledGatewayless() {
        TopologyException failure = failureOf("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.20.1.2, gateway: true}
                """);

        assertThat(failure.errors()).singleElement().extracting(TopologyError::problem).isEqualTo("missing required field 'cniIP'");
    }

    @Test
    void podsAreNotCheckedAgainstPodCidrsThatCouldNotBeRead() {
        TopologyException failure = failureOf("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16, 10.2.0.0/33]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}]
                    pods:
                      - {name: client, node: gw, ip: 10.2.0.5}
                """);

        assertThat(failure.errors()).singleElement().extracting(TopologyError::path).isEqualTo("clusters[0].podCIDRs[1]");
    }

    @Test
    void anExportOfAServiceThatWasLeftOutIsNotReportedAgain() {
        TopologyException failure = failureOf("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}]
                    services:
                      - {name: web, clusterIP: 10.96.0.300, selector: {app: web}, ports: [{port: 80}]}
                    exports: [default/web]
                """);

        assertThat(failure.errors()).singleElement().extracting(TopologyError::path).isEqualTo("clusters[0].services[0].clusterIP");
    }

    @Test
    void errorsAfterALeftOutEntryNameTheEntryByItsPlaceInTheFile() {
        TopologyException failure = failureOf("""
                clusters:
                  - name: east
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}]
                    pods:
                      - {name: broken, node: gw}
                      - {name: stray, node: gw, ip: 10.7.0.1}
                """);

        assertThat(failure.errors()).extracting(TopologyError::path)
                .containsExactly("clusters[0].pods[0].ip", "clusters[0].pods[1].ip");
        assertThat(failure.errors().get(1).line()).isEqualTo(8);
    }

    @Test
    void aMisspelledRequiredFieldIsReportedOnceAsMisspelledNotAlsoAsMissing() {
        TopologyException failure = failureOf("""
                clusters:
                  - name: east
                    podCIDR: [10.1.0.0/16]
                    serviceCIDRs: [10.96.0.0/16]
                    nodes: [{name: gw, ip: 172.20.1.2, cniIP: 10.1.0.1, gateway: true}]
                """);

        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("clusters[0].podCIDR");
            assertThat(error.fix()).isEqualTo("did you mean 'podCIDRs'?");
        });
    }

    @Test
    void aMissingFileIsReportedWithoutALine(@TempDir Path directory) {
        Path missing = directory.resolve("nowhere.yaml");

        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.load(missing));

        assertThat(failure.errors()).singleElement().satisfies(error -> {
            assertThat(error.file()).isEqualTo(missing.toString());
            assertThat(error.line()).isZero();
            assertThat(error.problem()).isEqualTo("file not found");
        });
    }

    @Test
    void aDirectoryIsNotATopologyFile(@TempDir Path directory) {
        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.load(directory));

        assertThat(failure.errors()).singleElement().extracting(TopologyError::problem).asString().contains("is a directory");
    }

    @Test
    void aFileThatIsNotUtf8IsReportedAsSuch(@TempDir Path directory) throws IOException {
        Path latin1 = directory.resolve("latin1.yaml");
        Files.write(latin1, new byte[] {'n', 'a', 'm', 'e', ':', ' ', (byte) 0xE9, '\n'});

        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.load(latin1));

        TopologyError error = failure.errors().getFirst();
        assertThat(failure.errors()).hasSize(1);
        assertThat(error.problem()).startsWith("the file is not UTF-8 text").contains("0xE9");
        // The stray byte is named by place, so it can be found in a long file.
        assertThat(error.line()).isEqualTo(1);
        assertThat(error.column()).isEqualTo(7);
    }
}
