package io.periscope.lab.link;

import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A delayed link's packets go to the NFQUEUE queues {@link LinkPlan#delays} names for the
 * supervisor's delay line, and nowhere else: with no delay line listening (the rules have no
 * {@code --queue-bypass}), every ping across east-worker's delayed uplink is dropped at its queue,
 * which counts each one, while west, whose links have no delay, carries its pings as before.
 */
class DelayedLinksHandTheirPacketsToTheDelayLine {

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void aDelayedUplinkQueuesEveryPacketAndWithoutAListenerNoneGetsThrough() {
        ClusterSet set = LinkedTopologies.twoClusters("labtest-delay-" + ProcessHandle.current().pid(), "delay: 5ms, jitter: 1ms", "", "delay: 20ms");
        RunningLab lab = labs.upWithoutSupervisor(set);
        String worker = lab.layout().requireHost(HostId.node("east", "east-worker")).namespace();
        String eastPod = lab.layout().requireHost(HostId.pod("east", "default", "client")).namespace();
        String westPod = lab.layout().requireHost(HostId.pod("west", "default", "server")).namespace();
        assertThat(lab.progress()).anyMatch(line -> line.startsWith("links: no rate; loss on none;"
                + " delay on 1 uplink (5ms ± 1ms) and 1 cable (20ms), held by the supervisor's delay line on 4 NFQUEUE queues"));

        String east = lab.inNamespace(eastPod, "sh", "-c", "ping -q -n -c 5 -i 0.2 -W 1 172.31.41.2 || true");
        String west = lab.inNamespace(westPod, "ping", "-q", "-n", "-c", "5", "-i", "0.2", "-W", "1", "172.31.42.2");

        assertThat(east).contains("5 packets transmitted, 0 received");
        assertThat(west).contains("5 packets transmitted, 5 received");
        String counters = lab.inNamespace(worker, "iptables-save", "-c", "-t", "mangle");
        assertThat(LossyLinksLoseTheirShareEachWayInTheKernel.counter(counters, "-A LAB-LINK-OUT -o eth0 -j NFQUEUE --queue-num 1"))
                .as("every request went to the uplink's leaving queue").isEqualTo(5);
        List<Integer> kernelQueues = queues(lab.inNamespace(worker, "iptables-save", "-t", "mangle"));
        List<Integer> planned = LinkPlan.delays(set).stream().filter(d -> d.namespace().equals(worker)).map(DelayedLink::queueNumber).toList();
        assertThat(kernelQueues).containsExactlyInAnyOrderElementsOf(planned).containsExactlyInAnyOrder(1, 2);
    }

    private static List<Integer> queues(String saved) {
        Matcher m = Pattern.compile("-j NFQUEUE --queue-num (\\d+)").matcher(saved);
        List<Integer> numbers = new java.util.ArrayList<>();
        while (m.find()) {
            numbers.add(Integer.parseInt(m.group(1)));
        }
        return numbers;
    }
}
