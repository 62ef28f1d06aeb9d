package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 004 supports several active gateways with the vxlan cable only. examples/mag-vanilla.yaml
 * (vxlan) warns of nothing; the same file with WireGuard names the clusters, the cable, the gateways
 * and the flow between them, on standard error and in the JSON's warnings; with one active gateway
 * per cluster WireGuard is fine again.
 */
class CheckWarnsOfCablesThatReachOneOfSeveralActiveGateways {

    private static final Path EXAMPLE = Path.of("..", "examples", "mag-vanilla.yaml");

    /** The example with another default cable driver, written into {@code dir}. */
    private static Path withCable(Path dir, String driver) throws IOException {
        Path file = dir.resolve(driver + ".yaml");
        Files.writeString(file, Files.readString(EXAMPLE).replace("cableDriver: vxlan", "cableDriver: " + driver));
        return file;
    }

    @Test
    void severalActiveGatewaysWithTheVxlanCableWarnOfNothing() {
        PeriscopeRun check = PeriscopeRun.of("check", EXAMPLE.toString(), "--no-matrix");
        assertThat(check.status()).isZero();
        assertThat(check.err()).doesNotContain("warning");
    }

    @Test
    void severalActiveGatewaysWithWireGuardNameTheClustersTheCableAndTheFlow(@TempDir Path dir) throws Exception {
        Path wireGuard = withCable(dir, "wireguard");

        PeriscopeRun check = PeriscopeRun.of("check", wireGuard.toString(), "--no-matrix");

        assertThat(check.err()).containsOnlyOnce("warning: the wireguard cable between cluster1 and cluster2 (defaults.cableDriver)")
                .contains("cluster cluster1 has 2 active gateways (gw-1, gw-2) and cluster cluster2 has 2 active gateways (gw-3, gw-4)",
                        "one peer (its allowed IPs)", "Flows affected: client-to-nginx.",
                        "set multiActiveGateways: false on cluster1 and cluster2");
        PeriscopeRun json = PeriscopeRun.of("check", wireGuard.toString(), "--no-matrix", "--json");
        JsonNode warnings = new ObjectMapper().readTree(json.out()).get("warnings");
        assertThat(warnings).singleElement().satisfies(w -> assertThat(w.asText()).startsWith("the wireguard cable between cluster1 and cluster2")
                .contains("client-to-nginx"));
    }

    @Test
    void libreswanIsWarnedOfAsWell(@TempDir Path dir) throws Exception {
        Path libreswan = withCable(dir, "libreswan");

        PeriscopeRun check = PeriscopeRun.of("check", libreswan.toString(), "--no-matrix");

        assertThat(check.err()).containsOnlyOnce("warning: the libreswan cable between cluster1 and cluster2")
                .contains("finds no security association", "Flows affected: client-to-nginx.");
    }

    @Test
    void oneActiveGatewayPerClusterWithWireGuardWarnsOfNothing(@TempDir Path dir) throws Exception {
        Path single = withCable(dir, "wireguard");
        Files.writeString(single, Files.readString(single).replace("    multiActiveGateways: true\n", ""));
        assertThat(Files.readString(single)).doesNotContain("multiActiveGateways");

        PeriscopeRun check = PeriscopeRun.of("check", single.toString(), "--no-matrix");

        assertThat(check.status()).as(check.err()).isZero();
        assertThat(check.err()).doesNotContain("warning");
    }
}
