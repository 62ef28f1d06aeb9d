package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connectivity policy whose selector matches no cluster (a mistyped label) connects nothing, which
 * is allowed but hardly meant: check says so on standard error and in its JSON, naming the policy and
 * where it is in the file; the shipped policy, whose selectors match, gets no warning.
 */
class CheckWarnsOfAPolicySelectorMatchingNoCluster {

    private static final Path EXAMPLE = Path.of("..", "examples", "client-server.yaml");

    @Test
    void theShippedPolicyIsNotWarnedOf() {
        PeriscopeRun check = PeriscopeRun.of("check", EXAMPLE.toString(), "--no-matrix");

        assertThat(check.err()).doesNotContain("warning");
    }

    @Test
    void aMistypedLabelIsWarnedOfWithThePolicyAndItsPlace(@TempDir Path dir) throws Exception {
        Path typo = dir.resolve("typo.yaml");
        Files.writeString(typo, Files.readString(EXAMPLE).replace("leftClusterSelector: {database-role: server}",
                "leftClusterSelector: {database-role: sever}"));

        PeriscopeRun check = PeriscopeRun.of("check", typo.toString(), "--no-matrix");
        assertThat(check.err()).containsOnlyOnce("warning: " + typo + ":43:").contains(
                "connectivityPolicies[0].leftClusterSelector: the leftClusterSelector of connectivity policy 'client-server-policy'"
                        + " matches no cluster, so the policy connects nothing");
        assertThat(check.err()).doesNotContain("rightClusterSelector");

        PeriscopeRun json = PeriscopeRun.of("check", typo.toString(), "--no-matrix", "--json");
        JsonNode warnings = new ObjectMapper().readTree(json.out()).path("warnings");
        assertThat(warnings).singleElement().satisfies(w -> assertThat(w.asText())
                .startsWith(typo + ":43:").contains("connectivity policy 'client-server-policy' matches no cluster"));
    }
}
