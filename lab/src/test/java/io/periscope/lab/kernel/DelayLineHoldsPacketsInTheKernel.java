package io.periscope.lab.kernel;

import io.periscope.lab.link.DelayLine;
import io.periscope.lab.link.DelayLineSpec;
import io.periscope.lab.link.DelayLineStatus;
import io.periscope.lab.link.KernelQueueCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Real packets through {@link DelayLine}s. Namespaces a (10.77.1.1) and b (10.77.1.2) are joined by
 * a veth; each sends everything leaving on it to its own queue 7 ({@code mangle POSTROUTING -o DEV
 * -j NFQUEUE --queue-num 7}, where a link's egress is) and a delay line in each serves it, so every
 * round trip crosses two lines.
 *
 * <p>The rules do not say {@code --queue-bypass}: with no line serving the queue the kernel drops the
 * packets, so a line that is missing or has died shows as total loss on its link, which any probe
 * sees, instead of a link that is quietly as fast as an undelayed one and measurements that look
 * right and are not. {@link #closingReleasesHeldPacketsEarlyAndLeavesEverythingElseAsItWas} shows both.
 */
class DelayLineHoldsPacketsInTheKernel {

    private static final int QUEUE = 7;
    private static final Pattern REPLY = Pattern.compile("time=([0-9.]+) ms");
    private static final Pattern SUMMARY = Pattern.compile("rtt min/avg/max/mdev = ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+) ms");

    private NamespaceRig rig;
    private final List<DelayLine> lines = new ArrayList<>();

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        NamespaceRig.assumeTool("ping", "iputils-ping");
        rig = new NamespaceRig("dl");
        rig.namespace("a").namespace("b").link("a", "ab", "10.77.1.1/24", "b", "ba", "10.77.1.2/24");
        rig.in("a", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "ab", "-j", "NFQUEUE", "--queue-num", Integer.toString(QUEUE));
        rig.in("b", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "ba", "-j", "NFQUEUE", "--queue-num", Integer.toString(QUEUE));
    }

    @AfterEach
    void remove() {
        lines.forEach(DelayLine::close);
        if (rig != null) {
            rig.close();
        }
    }

    private DelayLine line(String namespace, int queue, Duration delay, Duration jitter) {
        DelayLine line = DelayLine.start(new DelayLineSpec(rig.ns(namespace), queue, delay, jitter));
        lines.add(line);
        return line;
    }

    /** The round-trip times of {@code count} pings from a to b, 20 ms apart, in milliseconds. */
    private List<Double> pings(int count) {
        String out = rig.in("a", "ping", "-c", Integer.toString(count), "-i", "0.02", "-W", "2", "10.77.1.2");
        List<Double> times = new ArrayList<>();
        Matcher m = REPLY.matcher(out);
        while (m.find()) {
            times.add(Double.parseDouble(m.group(1)));
        }
        assertThat(times).as("every ping answered:\n" + out).hasSize(count);
        Matcher summary = SUMMARY.matcher(out);
        assertThat(summary.find()).isTrue();
        System.out.println(summary.group() + " (" + count + " pings)");
        return times;
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    /**
     * The middle round trip. The assertions use it rather than the mean: other work on the machine
     * (it is shared) delays a few replies by milliseconds, which moves the mean and not the median.
     */
    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return (sorted.get((sorted.size() - 1) / 2) + sorted.get(sorted.size() / 2)) / 2;
    }

    /** The spread of the middle half: unlike ping's mdev, a few replies late because the machine was busy hardly move it. */
    private static double interquartileRange(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() * 3 / 4) - sorted.get(sorted.size() / 4);
    }

    @ParameterizedTest(name = "{0} ms each way")
    @ValueSource(ints = {20, 5})
    void aRoundTripTakesBothLinesDelays(int millis) {
        DelayLine there = line("a", QUEUE, Duration.ofMillis(millis), Duration.ZERO);
        DelayLine back = line("b", QUEUE, Duration.ofMillis(millis), Duration.ZERO);

        List<Double> times = pings(50);

        double expected = 2.0 * millis;
        System.out.printf("%d ms each way: median %.3f ms, mean %.3f ms%n", millis, median(times), mean(times));
        assertThat(median(times)).isCloseTo(expected, within(expected * 0.1));
        // No packet goes before it is due: no reply comes sooner than both delays.
        assertThat(times).allMatch(t -> t >= expected);
        for (DelayLine line : List.of(there, back)) {
            DelayLineStatus status = line.status();
            System.out.println(status);
            assertThat(status.delayed()).isGreaterThanOrEqualTo(50);
            assertThat(status.droppedQueueFull() + status.droppedUndelivered() + status.verdictErrors()).isZero();
            assertThat(status.holding().minMicros()).isGreaterThanOrEqualTo(millis * 1000.0);
            assertThat(status.lateness().p50Micros()).as("the scheduler's median lateness").isLessThan(1000);
            assertThat(status.realtime()).as("root may run real-time threads").isTrue();
        }
    }

    @Test
    void jitterWidensTheSpreadAndKeepsTheMean() {
        DelayLine there = line("a", QUEUE, Duration.ofMillis(20), Duration.ZERO);
        DelayLine back = line("b", QUEUE, Duration.ofMillis(20), Duration.ZERO);
        List<Double> steady = pings(50);

        there.retune(new DelayLineSpec(rig.ns("a"), QUEUE, Duration.ofMillis(20), Duration.ofMillis(5)));
        back.retune(new DelayLineSpec(rig.ns("b"), QUEUE, Duration.ofMillis(20), Duration.ofMillis(5)));
        List<Double> jittered = pings(100);

        System.out.printf("interquartile range: %.3f ms steady, %.3f ms with 5 ms of jitter each way%n",
                interquartileRange(steady), interquartileRange(jittered));
        System.out.printf("with jitter: median %.3f ms, mean %.3f ms%n", median(jittered), mean(jittered));
        // The sum of two samples symmetric about 20 ms: its middle stays at 40 ms.
        assertThat(median(jittered)).isCloseTo(40.0, within(4.0));
        // The sum of two uniform samples of +-5 ms: a triangle over +-10 ms whose middle half spans 5.9 ms.
        assertThat(interquartileRange(jittered)).isGreaterThan(3.0);
        assertThat(interquartileRange(steady)).isLessThan(1.0);
        assertThat(jittered).allMatch(t -> t >= 30.0);
        assertThat(jittered).anyMatch(t -> t < 35.0);
        assertThat(jittered).anyMatch(t -> t > 45.0);
    }

    @Test
    void aTcpTransferCrossesDelayedLinksAndItsRateIsReported() {
        // Forwarded through router r, as a node forwards its pods' packets onto its uplink.
        NamespaceRig routed = NamespaceRig.clientRouterServer("dlr");
        try {
            routed.in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rs", "-j", "NFQUEUE", "--queue-num", "1");
            routed.in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rc", "-j", "NFQUEUE", "--queue-num", "2");
            DelayLine toServer = line(routed, "r", 1, Duration.ofMillis(5));
            DelayLine toClient = line(routed, "r", 2, Duration.ofMillis(5));
            double bits = iperf(routed, "c", "s", "10.77.2.2");
            System.out.printf("TCP through a router delaying 5 ms each way: %.0f Mbit/s%n", bits / 1e6);
            System.out.println(toServer.status());
            System.out.println(toClient.status());
            assertThat(bits).isGreaterThan(50e6);
            assertThat(toServer.status().delayed()).isGreaterThan(1000);
            assertThat(toServer.status().holding().minMicros()).isGreaterThanOrEqualTo(5000.0);
        } finally {
            routed.close();
        }
    }

    /**
     * A packet a delay line holds on the egress of its sender's own namespace still belongs to the
     * sender's socket until it leaves: TCP small queues let a TCP socket have only about a
     * millisecond of its data (at least two packets) in the machine below it, and a UDP socket's
     * send buffer ({@code net.core.wmem_default}, 208 KB) bounds what a UDP socket has in flight.
     * So the sender waits for the line. netem avoids this by detaching a packet from its socket;
     * NFQUEUE does not. A packet a namespace forwards was detached when it entered the namespace, so
     * a node's uplink delays its pods' traffic at full rate; only the node's own sockets are held
     * back (a gateway's {@code wireguard-go} among them).
     */
    @Test
    void aSendersOwnSocketWaitsForItsPacketsHeldOnItsOwnEgress() {
        line("a", QUEUE, Duration.ofMillis(5), Duration.ZERO);
        line("b", QUEUE, Duration.ofMillis(5), Duration.ZERO);
        double tcpOwn = iperf(rig, "a", "b", "10.77.1.2");
        rig.in("a", "iptables", "-t", "mangle", "-I", "POSTROUTING", "-o", "ab", "-p", "udp", "-j", "NFQUEUE", "--queue-num", "8");
        line("a", 8, Duration.ofMillis(50), Duration.ZERO);
        double udpOwn = iperfUdp(rig, "a", "10.77.1.2");
        NamespaceRig routed = NamespaceRig.clientRouterServer("dlt");
        try {
            routed.in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rs", "-j", "NFQUEUE", "--queue-num", "1");
            routed.in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rc", "-j", "NFQUEUE", "--queue-num", "2");
            DelayLine toServer = line(routed, "r", 1, Duration.ofMillis(5));
            line(routed, "r", 2, Duration.ofMillis(5));
            double tcpForwarded = iperf(routed, "c", "s", "10.77.2.2");
            toServer.retune(new DelayLineSpec(routed.ns("r"), 1, Duration.ofMillis(50), Duration.ZERO));
            double udpForwarded = iperfUdp(routed, "c", "10.77.2.2");
            System.out.printf("TCP with 5 ms each way: %.1f Mbit/s delayed on the sender's own egress, %.1f Mbit/s on a router's%n",
                    tcpOwn / 1e6, tcpForwarded / 1e6);
            System.out.printf("UDP at 200 Mbit/s with 50 ms: %.1f Mbit/s sent delayed on the sender's own egress, %.1f Mbit/s on a router's%n",
                    udpOwn / 1e6, udpForwarded / 1e6);
            assertThat(tcpOwn).isPositive();
            assertThat(tcpForwarded).isGreaterThan(5 * tcpOwn);
            assertThat(udpOwn).isPositive();
            assertThat(udpForwarded).isGreaterThan(3 * udpOwn);
        } finally {
            routed.close();
        }
    }

    /** Bits per second a 3-second iperf3 UDP sender asked for 200 Mbit/s in 1,400-byte datagrams managed to send. */
    private static double iperfUdp(NamespaceRig on, String client, String address) {
        String json = "";
        for (int tries = 0; tries < 50 && !json.contains("\"sum\""); tries++) {
            sleep(100);
            json = run(List.of("ip", "netns", "exec", on.ns(client), "iperf3", "-c", address, "-u", "-b", "200M", "-l", "1400", "-t", "3", "-J"));
        }
        Matcher sent = Pattern.compile("\"end\"[\\s\\S]*\"sum\"\\s*:\\s*\\{[^}]*\"bits_per_second\"\\s*:\\s*([0-9.e+]+)").matcher(json);
        assertThat(sent.find()).as("iperf3's report:\n" + json).isTrue();
        return Double.parseDouble(sent.group(1));
    }

    private DelayLine line(NamespaceRig on, String namespace, int queue, Duration delay) {
        DelayLine line = DelayLine.start(new DelayLineSpec(on.ns(namespace), queue, delay, Duration.ZERO));
        lines.add(line);
        return line;
    }

    /** Bits per second the receiver got from a 3-second iperf3 TCP transfer from {@code client} to {@code server} at {@code address}. */
    private static double iperf(NamespaceRig on, String client, String server, String address) {
        on.background(server, "iperf3", "-s", "-B", address);
        String json = "";
        for (int tries = 0; tries < 50 && !json.contains("sum_received"); tries++) {
            sleep(100);
            json = run(List.of("ip", "netns", "exec", on.ns(client), "iperf3", "-c", address, "-t", "3", "-J"));
        }
        Matcher received = Pattern.compile("\"sum_received\"\\s*:\\s*\\{[^}]*\"bits_per_second\"\\s*:\\s*([0-9.e+]+)").matcher(json);
        assertThat(received.find()).as("iperf3's report:\n" + json).isTrue();
        return Double.parseDouble(received.group(1));
    }

    @Test
    void closingReleasesHeldPacketsEarlyAndLeavesEverythingElseAsItWas() throws Exception {
        DelayLine there = line("a", QUEUE, Duration.ofMillis(600), Duration.ZERO);
        DelayLine back = line("b", QUEUE, Duration.ofMillis(100), Duration.ZERO);
        String rulesA = rules("a");
        String rulesB = rules("b");
        // IPv4 only: the kernel gives the veths their IPv6 link-local addresses in its own time (duplicate address detection).
        String devices = rig.in("a", "ip", "-o", "-4", "addr") + rig.in("b", "ip", "-o", "-4", "addr");

        Process ping = new ProcessBuilder("ip", "netns", "exec", rig.ns("a"), "ping", "-c", "1", "-W", "3", "10.77.1.2")
                .redirectErrorStream(true).start();
        assertThat(awaitStatus(there, s -> s.held() == 1).held()).as("the echo request is held").isEqualTo(1);
        there.close();
        String out = new String(ping.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ping.waitFor(5, TimeUnit.SECONDS)).isTrue();
        Matcher reply = REPLY.matcher(out);
        assertThat(reply.find()).as("the held request was accepted, not lost:\n" + out).isTrue();
        double rtt = Double.parseDouble(reply.group(1));
        System.out.println("held for 600 ms, released by close as soon as it was seen held, answered after " + rtt + " ms");
        // Left alone it would take 600 + 100 ms; released early it still crosses b's 100 ms line.
        assertThat(rtt).isBetween(100.0, 600.0);
        assertThat(there.status().delayed()).isEqualTo(1);

        assertThat(delayLineThreads(rig.ns("a"))).isEmpty();
        assertThat(delayLineThreads(rig.ns("b"))).hasSize(2);
        assertThat(queueCounters("a")).as("queue 7 of a is unbound").isEmpty();
        assertThat(queueCounters("b")).isPresent();
        assertThat(rules("a")).isEqualTo(rulesA);
        assertThat(rules("b")).isEqualTo(rulesB);
        assertThat(rig.in("a", "ip", "-o", "-4", "addr") + rig.in("b", "ip", "-o", "-4", "addr")).isEqualTo(devices);
        assertThat(back.running()).isTrue();

        // Nothing serves a's queue now and the rule does not bypass: the link loses everything.
        assertThat(rig.script("a", "ping -c 3 -i 0.05 -W 1 10.77.1.2")).isNotZero();

        back.close();
        assertThat(delayLineThreads(rig.ns("b"))).isEmpty();
    }

    /**
     * A queue's packets beyond its maximum length held are dropped by the kernel, which counts them.
     * The sender is behind router r, whose queue it fills: a sender's own socket could not have that
     * many packets held (see {@link #aSendersOwnSocketWaitsForItsPacketsHeldOnItsOwnEgress}).
     *
     * <p>The counts are the test's own, not what a machine manages in a time window: the line holds
     * for far longer than sending takes even on a loaded machine, iperf3 sends a fixed number of
     * datagrams, and the queue is short ({@link DelayLine.QueueSizes}), so exactly the queue's length
     * is held and every datagram after it is dropped, however fast they came.
     */
    @Test
    void aFullQueueDropsWhatComesNextAndCountsIt() {
        int maxLength = 100;
        int sent = 1_000;
        NamespaceRig routed = NamespaceRig.clientRouterServer("dlf");
        try {
            // Only iperf3's 200-byte datagrams (228 bytes with their headers): its 4-byte UDP handshake passes undelayed.
            routed.in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rs", "-p", "udp", "-m", "length", "--length", "228",
                    "-j", "NFQUEUE", "--queue-num", "8");
            DelayLine udp = DelayLine.start(new DelayLineSpec(routed.ns("r"), 8, Duration.ofMinutes(5), Duration.ZERO),
                    new DelayLine.QueueSizes(maxLength, DelayLine.QueueSizes.DEFAULT.receiveBufferBytes()));
            lines.add(udp);
            routed.background("s", "iperf3", "-s", "-B", "10.77.2.2");
            String json = "";
            for (int tries = 0; tries < 50 && !json.contains("\"sum\""); tries++) {
                sleep(100);
                json = run(List.of("ip", "netns", "exec", routed.ns("c"), "iperf3", "-c", "10.77.2.2", "-u", "-b", "0", "-l", "200",
                        "-k", Integer.toString(sent), "-J"));
            }
            assertThat(json).as("iperf3's report").contains("\"sum\"");
            // A try that failed before its handshake sent nothing; the kernel's counter is the number that reached the queue.
            long queued = routed.packets("r", "mangle", "--queue-num 8");
            assertThat(queued).isGreaterThanOrEqualTo(sent);
            DelayLineStatus status = awaitStatus(udp, s -> s.held() + s.droppedQueueFull() + s.droppedUndelivered() == queued);
            System.out.println(queued + " UDP packets queued: " + status);
            assertThat(status.droppedUndelivered()).as("the receive buffer holds the whole queue").isZero();
            assertThat(status.held()).isEqualTo(maxLength);
            assertThat(status.droppedQueueFull()).isEqualTo(queued - maxLength);
            assertThat(status.delayed()).as("nothing is due for minutes").isZero();

            udp.close();
            assertThat(udp.status().delayed()).as("closing released what it held").isEqualTo(maxLength);
        } finally {
            routed.close();
        }
    }

    /** The line's status once {@code condition} holds; the last one read if it does not within a minute. */
    private static DelayLineStatus awaitStatus(DelayLine line, java.util.function.Predicate<DelayLineStatus> condition) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        DelayLineStatus status = line.status();
        while (!condition.test(status) && System.nanoTime() < deadline) {
            sleep(50);
            status = line.status();
        }
        return status;
    }

    /**
     * A receive buffer too small for a burst: the kernel cannot hand the socket a packet's message,
     * drops the packet and counts it ({@code queue_user_dropped}), and the next receive reports
     * ENOBUFS. The line counts that and goes on serving the queue.
     */
    @Test
    void aReceiveBufferThatOverflowsLosesPacketsCountsThemAndTheLineGoesOn() {
        NamespaceRig routed = NamespaceRig.clientRouterServer("dlb");
        try {
            routed.in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rs", "-j", "NFQUEUE", "--queue-num", "8");
            // The smallest buffer the kernel grants holds a few messages: any burst overflows it.
            DelayLine small = DelayLine.start(new DelayLineSpec(routed.ns("r"), 8, Duration.ofMillis(1), Duration.ZERO),
                    new DelayLine.QueueSizes(DelayLine.QUEUE_MAX_LENGTH, 1));
            lines.add(small);
            routed.background("s", "iperf3", "-s", "-B", "10.77.2.2");
            String json = "";
            for (int tries = 0; tries < 50 && !json.contains("\"sum\""); tries++) {
                sleep(100);
                // As fast as iperf3 sends, faster than the line reads: a burst soon finds the buffer full.
                json = run(List.of("ip", "netns", "exec", routed.ns("c"), "iperf3", "-c", "10.77.2.2", "-u", "-b", "0", "-l", "64",
                        "-t", "1", "-J"));
            }
            long queued = 0;
            DelayLineStatus status = small.status();
            for (int tries = 0; tries < 50; tries++) {
                sleep(200);
                queued = routed.packets("r", "mangle", "--queue-num 8");
                status = small.status();
                if (status.held() == 0 && status.delayed() + status.droppedQueueFull() + status.droppedUndelivered() == queued) {
                    break;
                }
            }
            System.out.println(queued + " UDP packets queued to a line with the smallest receive buffer: " + status);
            assertThat(status.droppedUndelivered()).isPositive();
            assertThat(status.receiveOverruns()).isPositive();
            assertThat(status.delayed() + status.droppedQueueFull() + status.droppedUndelivered()).isEqualTo(queued);
            assertThat(small.running()).isTrue();
            assertThat(routed.script("c", "ping -c 5 -i 0.05 -W 1 10.77.2.2")).as("the line still serves its queue").isZero();
        } finally {
            routed.close();
        }
    }

    private String rules(String namespace) {
        return rig.in(namespace, "iptables-save").lines().filter(l -> !l.startsWith("#"))
                .map(l -> l.replaceAll("\\[\\d+:\\d+\\]", "")).reduce("", (x, y) -> x + y + "\n");
    }

    private java.util.Optional<KernelQueueCounters> queueCounters(String namespace) {
        return KernelQueueCounters.of(rig.in(namespace, "cat", "/proc/net/netfilter/nfnetlink_queue"), QUEUE);
    }

    static List<String> delayLineThreads(String namespace) {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("delay-line-" + namespace + "/")).toList();
    }

    private static String run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(60, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + argv, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
