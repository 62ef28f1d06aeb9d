package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * examples/mag-globalnet-egress.yaml as shipped (per-gateway egress ownership) passes every flow
 * and warns of nothing; the same file with seed 004's shared egress addresses fails the flows that
 * leave with a GlobalEgressIP or a headless pod's address, and check says why and which flows, once.
 * Legacy Globalnet is never told to set egressOwnership, which only Globalnet 2.0 accepts.
 */
class CheckWarnsOfSharedEgressOnSeveralActiveGateways {

    private static final Path EXAMPLE = Path.of("..", "examples", "mag-globalnet-egress.yaml");

    @Test
    void perGatewayOwnershipPassesEveryFlowWithoutAWarning() {
        PeriscopeRun check = PeriscopeRun.of("check", EXAMPLE.toString(), "--no-matrix");
        assertThat(check.status()).isZero();
        assertThat(check.out()).contains("PASS namespace-egress-to-nginx", "PASS pod-egress-to-nginx", "PASS headless-pod-to-nginx",
                "PASS nginx-to-headless-pod");
        assertThat(check.err()).doesNotContain("warning");
    }

    @Test
    void sharedOwnershipFailsTheUnpinnedFlowsAndNamesThem(@TempDir Path dir) throws Exception {
        Path shared = dir.resolve("shared.yaml");
        Files.writeString(shared, Files.readString(EXAMPLE).replace("egressOwnership: per-gateway", "egressOwnership: shared"));

        PeriscopeRun check = PeriscopeRun.of("check", shared.toString(), "--no-matrix");

        assertThat(check.status()).isEqualTo(1);
        assertThat(check.out()).contains("FAIL namespace-egress-to-nginx", "FAIL pod-egress-to-nginx", "FAIL headless-pod-to-nginx")
                .contains("PASS nginx-to-headless-pod");
        assertThat(check.err()).containsOnlyOnce("warning: cluster cluster1 has 2 active gateways")
                .contains("namespace-egress-to-nginx (GlobalEgressIP ns1/ns-egressip)", "pod-egress-to-nginx (GlobalEgressIP ns1/db-pods)",
                        "headless-pod-to-nginx (backend of headless default/cache)", "set egressOwnership: per-gateway on cluster cluster1")
                .doesNotContain("nginx-to-headless-pod (");
    }

    @Test
    void legacyGlobalnetIsNotToldToSetWhatTheValidatorRefuses(@TempDir Path dir) throws Exception {
        Path legacy = dir.resolve("legacy.yaml");
        Files.writeString(legacy, Files.readString(EXAMPLE).replace("  clusterSize: 256\n", "  clusterSize: 256\n  mode: legacy\n")
                .replace("    egressOwnership: per-gateway    # shared (seed 004 as written) | per-gateway\n", ""));
        assertThat(Files.readString(legacy)).contains("mode: legacy").doesNotContain("    egressOwnership");

        PeriscopeRun check = PeriscopeRun.of("check", legacy.toString(), "--no-matrix");

        assertThat(check.status()).as(check.err()).isNotEqualTo(ExitStatus.BAD_INPUT);
        assertThat(check.err()).doesNotContain("egressOwnership").doesNotContain("with shared egress addresses");
        // The advice it would have given is refused by the validator, which is what the warning must never lead to.
        Path advised = dir.resolve("advised.yaml");
        Files.writeString(advised, Files.readString(legacy).replace("    multiActiveGateways: true\n    nodes:\n      - {name: gw-1",
                "    multiActiveGateways: true\n    egressOwnership: per-gateway\n    nodes:\n      - {name: gw-1"));
        PeriscopeRun refused = PeriscopeRun.of("check", advised.toString(), "--no-matrix");
        assertThat(refused.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(refused.err()).contains("egressOwnership per-gateway owns Globalnet 2.0's egress addresses");
    }
}
