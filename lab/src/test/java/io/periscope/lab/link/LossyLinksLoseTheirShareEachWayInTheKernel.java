package io.periscope.lab.link;

import io.periscope.lab.RunningLab;
import io.periscope.lab.TestLabs;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An uplink with {@code loss: 10%} loses a tenth of what crosses it, each way on its own: 2000 pings
 * from a pod on the lossy node to its gateway cross the uplink leaving and their answers cross it
 * arriving, so a ping comes back with probability 0.9 x 0.9 and the count lost falls in the 99.9%
 * range of Binomial(2000, 0.19). The link chains' counters tell the two ways apart: every ping
 * lost was dropped by one of the two rules, the requests' drops fall in the range of
 * Binomial(2000, 0.1) and the answers' in that of Binomial(requests that got through, 0.1).
 */
class LossyLinksLoseTheirShareEachWayInTheKernel {

    private static final int PINGS = 2000;
    private static final double LOSS = 0.10;
    private static final double CONFIDENCE = 0.999;

    @RegisterExtension
    final TestLabs labs = new TestLabs();

    @Test
    void tenPercentEachWayLosesNineteenPercentOfRoundTrips() {
        RunningLab lab = labs.upWithoutSupervisor(LinkedTopologies.twoClusters("labtest-loss-" + ProcessHandle.current().pid(),
                "loss: 10%", "", ""));
        String pod = lab.layout().requireHost(HostId.pod("east", "default", "client")).namespace();
        String worker = lab.layout().requireHost(HostId.node("east", "east-worker")).namespace();

        String ping = lab.inNamespace(pod, "ping", "-q", "-n", "-c", String.valueOf(PINGS), "-i", "0.002", "-W", "2", "172.31.41.2");
        Matcher summary = Pattern.compile("(\\d+) packets transmitted, (\\d+) received").matcher(ping);
        assertThat(summary.find()).as(ping).isTrue();
        int sent = Integer.parseInt(summary.group(1));
        int lost = sent - Integer.parseInt(summary.group(2));
        double roundTrip = 1 - (1 - LOSS) * (1 - LOSS);
        Binomial.Range expected = new Binomial(sent, roundTrip).central(CONFIDENCE);

        String counters = lab.inNamespace(worker, "iptables-save", "-c", "-t", "mangle");
        long droppedLeaving = counter(counters, "-A LAB-LINK-OUT -o eth0 -m statistic");
        long droppedArriving = counter(counters, "-A LAB-LINK-IN -i eth0 -m statistic");
        // Every request leaves by eth0; every answer to a request that got through arrives by it.
        long leaving = sent;
        long arriving = sent - droppedLeaving;
        System.out.printf(Locale.ROOT, "loss 10%% each way: %d of %d pings lost (%.2f%%; 99.9%% range for %.0f%%: %d..%d);"
                        + " leaving %d of %d dropped (%.2f%%), arriving %d of %d (%.2f%%)%n", lost, sent, 100.0 * lost / sent, 100 * roundTrip,
                expected.low(), expected.high(), droppedLeaving, leaving, 100.0 * droppedLeaving / leaving, droppedArriving, arriving,
                100.0 * droppedArriving / arriving);

        assertThat(sent).isEqualTo(PINGS);
        assertThat(expected.contains(lost)).as(lost + " lost of " + sent + ", the 99.9% range is " + expected).isTrue();
        assertThat(new Binomial((int) leaving, LOSS).central(CONFIDENCE).contains(droppedLeaving)).as("leaving").isTrue();
        assertThat(new Binomial((int) arriving, LOSS).central(CONFIDENCE).contains(droppedArriving)).as("arriving").isTrue();
        assertThat(droppedLeaving + droppedArriving).as("every ping lost was dropped by the link's rules, and nothing else was").isEqualTo(lost);
    }

    /** The packet count {@code iptables-save -c} shows in front of the first rule that starts with {@code rule}. */
    static long counter(String saved, String rule) {
        for (String line : saved.split("\n")) {
            Matcher m = Pattern.compile("^\\[(\\d+):\\d+\\] (.*)$").matcher(line);
            if (m.matches() && m.group(2).startsWith(rule)) {
                return Long.parseLong(m.group(1));
            }
        }
        throw new AssertionError("no rule starting with '" + rule + "' in:\n" + saved);
    }
}
