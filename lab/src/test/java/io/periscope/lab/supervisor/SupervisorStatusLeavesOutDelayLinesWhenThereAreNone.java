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
class SupervisorStatusLeavesOutDelayLinesWhenThereAreNone {

    private static final Map<String, SupervisorStatus.NodeAgentStatus> NODES =
            Map.of("c1/gw-1", new SupervisorStatus.NodeAgentStatus(true, List.of(), 3, "", false, "abc", Map.of()));
    private static final Map<String, ClusterDnsStatus> DNS = Map.of("c1", new ClusterDnsStatus("100.1.0.10", "c1/gw-1 10.0.0.1", List.of(), 0));

    @Test
    void withoutDelayLinesTheFileHasNone() throws Exception {
        SupervisorStatus status = new SupervisorStatus(42, "2026-11-25T00:00:00Z", NODES, DNS, "abc");
        String written = SupervisorFiles.JSON.writeValueAsString(status);

        assertThat(written).doesNotContain("delayLines").contains("\"revision\" : \"abc\"");
        assertThat(SupervisorFiles.JSON.readValue(written, SupervisorStatus.class).delayLines()).isEmpty();
        assertThat(SupervisorFiles.JSON.readValue(written, SupervisorStatus.class)).isEqualTo(status);
    }

    @Test
    void delayLinesAreListedByNamespaceAndQueueAndReadBack() throws Exception {
        DelayLineStatus line = new DelayLineStatus("ns", 9, 30.0, 0.0, true, "", 20, 0, 0, 0, 0, 0, true, 1.5,
                new HoldingSummary(20, 30100.0, 30050.0, 30080.0, 30090.0, 30100.0, 30200.0), HoldingSummary.EMPTY);
        SupervisorStatus status = new SupervisorStatus(42, "2026-11-25T00:00:00Z", NODES, DNS, "abc", SupervisorStatus.LinkStatus.NONE,
                Map.of("ns/9", line));
        String written = SupervisorFiles.JSON.writeValueAsString(status);
        assertThat(written).contains("\"delayLines\" : {\n    \"ns/9\" : {");
        assertThat(SupervisorFiles.JSON.readValue(written, SupervisorStatus.class)).isEqualTo(status);
    }
}
