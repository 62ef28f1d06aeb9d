package io.periscope.lab.kernel;

import io.periscope.lab.link.DelayLineSpec;
import io.periscope.lab.link.DelayLineStatus;
import io.periscope.lab.link.DelayLines;
import io.periscope.lab.link.KernelQueueCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DelayLines} kept level with a list of specs, as the lab's supervisor keeps them with the
 * topology: namespaces a and b joined by a veth, each queueing its egress to queue 7 as in
 * {@link DelayLineHoldsPacketsInTheKernel}. A changed delay is taken by the running line (the same
 * netlink socket keeps serving the queue: its port id in {@code /proc/net/netfilter/nfnetlink_queue}
 * stays), a line no longer wanted stops, and a line whose namespace does not exist is reported,
 * not running, until it does.
 */
class DelayLinesFollowTheirSpecsInTheKernel {

    private static final Pattern MINIMUM = Pattern.compile("rtt min/avg/max/mdev = ([0-9.]+)/");

    private NamespaceRig rig;
    private final List<String> log = new ArrayList<>();
    private DelayLines lines;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        NamespaceRig.assumeTool("ping", "iputils-ping");
        rig = new NamespaceRig("dls");
        rig.namespace("a").namespace("b").link("a", "ab", "10.77.1.1/24", "b", "ba", "10.77.1.2/24");
        rig.in("a", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "ab", "-j", "NFQUEUE", "--queue-num", "7");
        rig.in("b", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "ba", "-j", "NFQUEUE", "--queue-num", "7");
        lines = new DelayLines(line -> {
            synchronized (log) {
                log.add(line);
            }
        });
    }

    @AfterEach
    void remove() {
        if (lines != null) {
            lines.close();
        }
        if (rig != null) {
            rig.close();
        }
    }

    private DelayLineSpec spec(String namespace, int millis) {
        return new DelayLineSpec(rig.ns(namespace), 7, Duration.ofMillis(millis), Duration.ZERO);
    }

    /** The fastest of 30 round trips: never before both delays, and close to them even on a busy machine. */
    private double fastestRtt() {
        Matcher m = MINIMUM.matcher(rig.in("a", "ping", "-q", "-c", "30", "-i", "0.02", "-W", "2", "10.77.1.2"));
        assertThat(m.find()).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private Optional<KernelQueueCounters> queue(String namespace) {
        return KernelQueueCounters.of(rig.in(namespace, "cat", "/proc/net/netfilter/nfnetlink_queue"), 7);
    }

    @Test
    void linesStartRetuneInPlaceAndStopAsTheSpecsSay() {
        lines.reconcile(List.of(spec("a", 20), spec("b", 20)));
        assertThat(lines.status().values()).allMatch(DelayLineStatus::running);
        assertThat(fastestRtt()).isBetween(40.0, 42.0);
        long portId = queue("a").orElseThrow().portId();

        lines.reconcile(List.of(spec("a", 5), spec("b", 5)));
        assertThat(fastestRtt()).isBetween(10.0, 12.0);
        assertThat(queue("a").orElseThrow().portId()).as("the same socket serves the queue").isEqualTo(portId);
        assertThat(lines.status().get(rig.ns("a") + "/7").delayMillis()).isEqualTo(5.0);
        assertThat(log).anyMatch(l -> l.contains("20 ms -> 5 ms (in place)"));

        lines.reconcile(List.of(spec("b", 5)));
        assertThat(queue("a")).as("a's queue is unbound").isEmpty();
        assertThat(DelayLineHoldsPacketsInTheKernel.delayLineThreads(rig.ns("a"))).isEmpty();
        assertThat(lines.status()).containsOnlyKeys(rig.ns("b") + "/7");
        assertThat(queue("b")).isPresent();
    }

    @Test
    void aLineWhoseNamespaceDoesNotExistYetIsReportedAndStartsOnceItDoes() {
        DelayLineSpec later = new DelayLineSpec(rig.ns("c"), 3, Duration.ofMillis(10), Duration.ZERO);
        lines.reconcile(List.of(spec("a", 5), later));
        DelayLineStatus missing = lines.status().get(later.key());
        assertThat(missing.running()).isFalse();
        assertThat(missing.error()).contains(rig.ns("c")).contains("does not exist");
        lines.reconcile(List.of(spec("a", 5), later));
        assertThat(log.stream().filter(l -> l.contains("cannot start"))).as("said once").hasSize(1);

        rig.namespace("c");
        // Generous for a loaded machine: the loop ends as soon as the line runs.
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!lines.status().get(later.key()).running() && System.nanoTime() < deadline) {
            lines.reconcile(List.of(spec("a", 5), later));
            sleep(100);
        }
        assertThat(lines.status().get(later.key()).running()).isTrue();
        assertThat(KernelQueueCounters.of(rig.in("c", "cat", "/proc/net/netfilter/nfnetlink_queue"), 3)).isPresent();
    }

    @Test
    void twoDelaysForOneQueueAreRefusedAndNothingChanges() {
        lines.reconcile(List.of(spec("a", 5)));
        assertThatThrownBy(() -> lines.reconcile(List.of(spec("a", 5), spec("a", 7))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two delay lines for queue 7");
        assertThat(lines.status().get(rig.ns("a") + "/7").delayMillis()).isEqualTo(5.0);
        assertThat(lines.status().get(rig.ns("a") + "/7").running()).isTrue();
    }

    @Test
    void anotherSocketOnTheQueueIsReportedNotFought() {
        lines.reconcile(List.of(spec("a", 5)));
        try (DelayLines rival = new DelayLines(line -> { })) {
            rival.reconcile(List.of(spec("a", 9)));
            DelayLineStatus refused = rival.status().get(rig.ns("a") + "/7");
            assertThat(refused.running()).isFalse();
            // The kernel answers EPERM, not EBUSY, when another socket's port id holds the queue.
            assertThat(refused.error()).contains("errno 1").contains("another socket serves this queue");
        }
        assertThat(lines.status().get(rig.ns("a") + "/7").running()).isTrue();
    }

    @Test
    void closingStopsEveryLineAndItsThreads() {
        lines.reconcile(List.of(spec("a", 5), spec("b", 5)));
        lines.close();
        assertThat(DelayLineHoldsPacketsInTheKernel.delayLineThreads(rig.ns("a"))).isEmpty();
        assertThat(DelayLineHoldsPacketsInTheKernel.delayLineThreads(rig.ns("b"))).isEmpty();
        assertThat(queue("a")).isEmpty();
        assertThat(queue("b")).isEmpty();
        lines.reconcile(List.of(spec("a", 5)));
        assertThat(lines.status()).as("a closed host starts nothing").isEmpty();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
