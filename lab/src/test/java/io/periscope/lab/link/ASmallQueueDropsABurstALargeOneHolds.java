package io.periscope.lab.link;

import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An uplink's {@code queue} is the number of packets that may wait for its rate: a burst of 100
 * full-size pings sent at once from a pod through its node's 10mbit uplink loses most of itself to a
 * queue of 5 and none to a queue of 1000, where the last waits about the 115 ms the rate needs for
 * 100 frames of 1442 bytes. The queue is changed on the running lab by the link reconciler, which
 * replaces the device's qdiscs: what {@code lab apply} has the supervisor do.
 */
class ASmallQueueDropsABurstALargeOneHolds {

    private static final String PREFIX = "labtest-queue-";

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void fiveDropAndAThousandHold() {
        String name = PREFIX + ProcessHandle.current().pid();
        RunningLab lab = labs.upWithoutSupervisor(LinkedTopologies.twoClusters(name, "rate: 10mbit, queue: 5", "", ""));
        String pod = lab.layout().requireHost(HostId.pod("east", "default", "client")).namespace();

        Burst small = burst(lab, pod);

        ClusterSet larger = LinkedTopologies.twoClusters(name, "rate: 10mbit, queue: 1000", "", "");
        LinkReconciler.Result changed = LinkReconciler.forRunningLab(ProcessCommandRunner.here()).reconcile(LinkPlan.of(larger));
        assertThat(changed.differences()).hasSize(2).allMatch(d -> d.contains("wanted") && d.contains("limit 1000"));
        Burst large = burst(lab, pod);
        System.out.printf(Locale.ROOT, "100 pings of 1400 bytes at once through a 10mbit uplink: queue 5 lost %d (slowest %.1f ms),"
                + " queue 1000 lost %d (slowest %.1f ms)%n", small.lost(), small.slowestMillis(), large.lost(), large.slowestMillis());

        assertThat(small.lost()).isGreaterThanOrEqualTo(80);
        assertThat(large.lost()).isZero();
        assertThat(large.slowestMillis()).as("the last ping waited for 99 frames ahead of it").isBetween(90.0, 250.0);
    }

    private record Burst(int lost, double slowestMillis) {
    }

    private static Burst burst(RunningLab lab, String pod) {
        String ping = lab.inNamespace(pod, "ping", "-q", "-n", "-c", "100", "-l", "100", "-s", "1400", "-W", "3", "172.31.41.2");
        Matcher counts = Pattern.compile("(\\d+) packets transmitted, (\\d+) received").matcher(ping);
        assertThat(counts.find()).as(ping).isTrue();
        Matcher rtt = Pattern.compile("= [\\d.]+/[\\d.]+/([\\d.]+)/").matcher(ping);
        return new Burst(Integer.parseInt(counts.group(1)) - Integer.parseInt(counts.group(2)), rtt.find() ? Double.parseDouble(rtt.group(1)) : 0);
    }
}
