package io.periscope.lab.supervisor;

import io.periscope.lab.dns.ClusterDnsStatus;
import io.periscope.lab.link.DelayLineStatus;
import io.periscope.lab.link.HoldingSummary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status file of a supervisor that runs no delay line is what it was before delay lines
 * existed, byte for byte; one that runs some lists them under {@code links}, and a file without
 * them reads as none.
 */
class SupervisorStatusLeavesOutLinksWhenThereAreNone {

    private static final Map<String, SupervisorStatus.NodeAgentStatus> NODES =
            Map.of("c1/gw-1", new SupervisorStatus.NodeAgentStatus(true, List.of(), 3, "", false, "abc"));
    private static final Map<String, ClusterDnsStatus> DNS = Map.of("c1", new ClusterDnsStatus("100.1.0.10", "c1/gw-1 10.0.0.1", List.of(), 0));

    @Test
    void withoutDelayLinesTheFileHasNoLinks() throws Exception {
        String written = SupervisorFiles.JSON.writeValueAsString(new SupervisorStatus(42, "2026-11-25T00:00:00Z", NODES, DNS, "abc", Map.of()));
        assertThat(written).isEqualTo("""
                {
                  "pid" : 42,
                  "updated" : "2026-11-25T00:00:00Z",
                  "nodes" : {
                    "c1/gw-1" : {
                      "running" : true,
                      "down" : [ ],
                      "passes" : 3,
                      "lastError" : "",
                      "leading" : false,
                      "converged" : "abc"
                    }
                  },
                  "dns" : {
                    "c1" : {
                      "service" : "100.1.0.10",
                      "server" : "c1/gw-1 10.0.0.1",
                      "clustersDown" : [ ],
                      "replacements" : 0
                    }
                  },
                  "revision" : "abc"
                }""");
        assertThat(SupervisorFiles.JSON.readValue(written, SupervisorStatus.class).links()).isEmpty();
    }

    @Test
    void delayLinesAreListedByNamespaceAndQueueAndReadBack() throws Exception {
        DelayLineStatus line = new DelayLineStatus("ns", 9, 30.0, 0.0, true, "", 20, 0, 0, 0, 0, 0, true, 1.5,
                new HoldingSummary(20, 30100.0, 30050.0, 30080.0, 30090.0, 30100.0, 30200.0), HoldingSummary.EMPTY);
        SupervisorStatus status = new SupervisorStatus(42, "2026-11-25T00:00:00Z", NODES, DNS, "abc", Map.of("ns/9", line));
        String written = SupervisorFiles.JSON.writeValueAsString(status);
        assertThat(written).contains("\"links\" : {\n    \"ns/9\" : {");
        assertThat(SupervisorFiles.JSON.readValue(written, SupervisorStatus.class)).isEqualTo(status);
    }
}
