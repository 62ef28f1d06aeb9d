package io.periscope.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-gateway egress ownership costs a slice per gateway; a pool too small for all of them fails
 * check on the object that asked, with what it needs in all (numberOfIPs x active gateways) and how
 * many addresses are missing. The object gets none of its slices, as on a cluster.
 */
class CheckNamesTheSliceAPoolCannotHold {

    private static final String FILE = Path.of("src", "test", "resources", "topologies", "pool-too-small-for-slices.yaml").toString();

    @Test
    void checkFailsNamingTheGlobalEgressIPItsWholeNeedAndTheAddressesMissing() {
        PeriscopeRun run = PeriscopeRun.of("check", FILE, "--no-matrix");

        assertThat(run.status()).as(run.err()).isEqualTo(ExitStatus.EXPECTATION_FAILED);
        assertThat(run.out()).contains("FAIL east: IPPoolAllocationFailed: GlobalEgressIP ns1/ns-egressip needs 9 global IPs, a slice of 3"
                        + " for each of its 3 active gateways (gw-1, gw-2, gw-3), but the pool 242.254.1.0/27 has only 6 free (3 missing)")
                .doesNotContain("slice of gateway gw-1)", "every expectation holds");
    }
}
