package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A pool too small for what the file asks (IPPoolAllocationFailed) leaves the cluster without those addresses: check fails. */
class CheckFailsWhenAGlobalnetObjectGetsNoAddresses {

    static final String POOL_SMALL = Path.of("src", "test", "resources", "topologies", "pool-too-small-for-egress.yaml").toString();

    @Test
    void textNamesEachObjectAndHowManyAddressesAreMissing() {
        PeriscopeRun run = PeriscopeRun.of("check", POOL_SMALL, "--no-matrix");

        assertThat(run.status()).isEqualTo(ExitStatus.EXPECTATION_FAILED);
        assertThat(run.out()).contains("FAIL east: IPPoolAllocationFailed: GlobalEgressIP db/db-egress asked for 8 addresses",
                "has only 4 free (4 missing)", "FAIL west: IPPoolAllocationFailed: ClusterGlobalEgressIP", "(2 missing)",
                "2 Globalnet objects could not get their addresses").doesNotContain("every expectation holds");
    }

    @Test
    void jsonListsTheFailuresAndDoesNotPass() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("check", POOL_SMALL, "--no-matrix", "--json");

        assertThat(run.status()).isEqualTo(ExitStatus.EXPECTATION_FAILED);
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(json.get("passed").asBoolean()).isFalse();
        JsonNode failures = json.get("allocationFailures");
        assertThat(failures).hasSize(2);
        assertThat(failures.get(0).get("cluster").asText()).isEqualTo("east");
        assertThat(failures.get(0).get("object").asText()).isEqualTo("GlobalEgressIP db/db-egress");
        assertThat(failures.get(0).get("reason").asText()).isEqualTo("IPPoolAllocationFailed");
        assertThat(failures.get(0).get("message").asText()).contains("(4 missing)");
    }

    @Test
    void aFileWhoseObjectsAllGetTheirAddressesPasses() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("check", Path.of("..", "examples", "globalnet-egress.yaml").toString(), "--no-matrix", "--json");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(new ObjectMapper().readTree(run.out()).get("allocationFailures")).isEmpty();
    }
}
