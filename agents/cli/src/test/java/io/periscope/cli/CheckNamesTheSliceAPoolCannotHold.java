package io.periscope.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Per-gateway egress ownership costs a slice per gateway; a pool too small for one fails check on the object that asked. */
class CheckNamesTheSliceAPoolCannotHold {

    private static final String FILE = Path.of("src", "test", "resources", "topologies", "pool-too-small-for-slices.yaml").toString();

    @Test
    void checkFailsNamingTheGlobalEgressIPsSliceAndTheAddressesMissing() {
        PeriscopeRun run = PeriscopeRun.of("check", FILE, "--no-matrix");

        assertThat(run.status()).as(run.err()).isEqualTo(ExitStatus.EXPECTATION_FAILED);
        assertThat(run.out()).contains("FAIL east: IPPoolAllocationFailed: GlobalEgressIP ns1/ns-egressip (slice of gateway gw-3) asked for 3",
                "missing)").doesNotContain("every expectation holds");
    }
}
