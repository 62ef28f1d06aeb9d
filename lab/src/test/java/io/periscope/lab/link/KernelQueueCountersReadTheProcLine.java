package io.periscope.lab.link;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /proc/net/netfilter/nfnetlink_queue} as kernel 6.18 writes it (lines taken from a delay line's namespace). */
class KernelQueueCountersReadTheProcLine {

    private static final String FILE = """
                1  12047     3 1     0    17     2       50  1
                2 4136394962     0 1     0     0     0     4029  1
            """;

    @Test
    void theQueuesLineGivesItsCounters() {
        assertThat(KernelQueueCounters.of(FILE, 1)).contains(new KernelQueueCounters(1, 12047, 3, 17, 2, 50));
        assertThat(KernelQueueCounters.of(FILE, 2)).contains(new KernelQueueCounters(2, 4136394962L, 0, 0, 0, 4029));
    }

    @Test
    void aQueueNobodyServesHasNoLine() {
        assertThat(KernelQueueCounters.of(FILE, 12)).isEmpty();
        assertThat(KernelQueueCounters.of("", 1)).isEmpty();
    }
}
