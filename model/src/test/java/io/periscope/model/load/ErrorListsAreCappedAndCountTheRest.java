package io.periscope.model.load;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A generated file that repeats one mistake in every cluster used to print every instance (307,868 errors
 * for 16 MiB of overlapping clusters); the list stops at {@link TopologyException#MAX_LISTED} and counts the rest.
 */
class ErrorListsAreCappedAndCountTheRest {

    @Test
    void twoThousandClustersSharingOneNetworkListFiftyOverlapsAndCountTheOthers() {
        int clusters = 2_000;
        StringBuilder text = new StringBuilder("name: same\nclusters:\n");
        for (int i = 0; i < clusters; i++) {
            text.append("  - {name: c").append(i).append(", podCIDRs: [10.0.0.0/16], serviceCIDRs: [10.96.0.0/16], nodes: [{name: n, ip: 172.16.")
                    .append(i / 250).append('.').append(i % 250 + 1).append(", cniIP: 10.0.0.1, gateway: true}]}\n");
        }

        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.parse(text.toString(), "same.yaml"));

        assertThat(failure.errors()).hasSize(TopologyException.MAX_LISTED);
        // Each later cluster's two CIDRs overlap the first cluster's.
        int overlaps = 2 * (clusters - 1);
        assertThat(failure.omitted()).isGreaterThanOrEqualTo(overlaps - TopologyException.MAX_LISTED);
        assertThat(failure.report()).contains("... and " + String.format(java.util.Locale.ROOT, "%,d", failure.omitted()) + " more errors, not listed");
        assertThat(failure.getMessage()).startsWith(String.format(java.util.Locale.ROOT, "%,d", failure.omitted() + TopologyException.MAX_LISTED) + " errors");
        assertThat(failure.errorsWithOmittedCount()).hasSize(TopologyException.MAX_LISTED + 1);
        assertThat(failure.errorsWithOmittedCount().getLast().problem()).contains("more errors, not listed");
    }
}
