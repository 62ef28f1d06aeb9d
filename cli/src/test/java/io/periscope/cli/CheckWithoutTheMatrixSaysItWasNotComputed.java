package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** --no-matrix on a file that exports services is not "nothing exported", in text or JSON. */
class CheckWithoutTheMatrixSaysItWasNotComputed {

    private static final String VANILLA = Path.of("..", "examples", "mag-vanilla.yaml").toString();

    @Test
    void textSaysNotComputed() {
        PeriscopeRun run = PeriscopeRun.of("check", VANILLA, "--no-matrix");

        assertThat(run.out()).contains("reachability: not computed (--no-matrix)").doesNotContain("no exported services");
    }

    @Test
    void jsonTellsNotComputedFromComputed() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode skipped = json.readTree(PeriscopeRun.of("check", VANILLA, "--no-matrix", "--json").out()).get("reachability");
        JsonNode computed = json.readTree(PeriscopeRun.of("check", VANILLA, "--json").out()).get("reachability");

        assertThat(skipped.get("computed").asBoolean()).isFalse();
        assertThat(computed.get("computed").asBoolean()).isTrue();
        assertThat(computed.get("services")).hasSize(1);
    }
}
