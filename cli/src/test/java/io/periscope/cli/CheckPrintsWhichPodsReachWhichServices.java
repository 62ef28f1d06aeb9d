package io.periscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.topology.GlobalnetMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class CheckPrintsWhichPodsReachWhichServices {

    @TempDir
    Path directory;

    @Test
    void theReadmeExampleHasBothPodsReachingTheExportedService() {
        PeriscopeRun run = PeriscopeRun.of("check", "../examples/mag-globalnet.yaml");

        assertThat(run.status()).isEqualTo(ExitStatus.OK);
        assertThat(run.out()).contains("  cluster1/default/client     yes   \n", "  cluster2/default/nginx-7d4f yes   \n",
                "  [1] cluster2/default/nginx  cluster2.nginx.default.svc.clusterset.local tcp/80\n");
    }

    @Test
    void aGeneratedSetGetsACellForEveryPodAndServiceWhileTracingFewerFlows() throws Exception {
        Path file = directory.resolve("synthetic.yaml");
        Files.writeString(file, TopologyWriter.write(new SyntheticClusterSet(2, 3, 2, 30, 2, 0, GlobalnetMode.V2, 10).build()));

        PeriscopeRun run = PeriscopeRun.of("check", file.toString(), "--json");

        assertThat(run.status()).isEqualTo(ExitStatus.OK);
        JsonNode reachability = new ObjectMapper().readTree(run.out()).get("reachability");
        assertThat(reachability.get("sources")).hasSize(60);
        assertThat(reachability.get("services")).hasSize(4);
        assertThat(reachability.get("cells")).hasSize(60).allSatisfy(row -> assertThat(row).hasSize(4));
        assertThat(reachability.get("traced").asLong()).isLessThan(60 * 4);
    }
}
