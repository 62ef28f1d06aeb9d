package io.periscope.benchmarks.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.lab.link.DelayLineSpec;
import io.periscope.lab.link.DelayLineStatus;
import io.periscope.lab.link.DelayLines;
import io.periscope.lab.link.HoldingSummary;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.command.CommandRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a delay line costs, side by side in one run: client c (10.77.1.2) sends to server s
 * (10.77.2.2) through router r, as a lab node forwards its pods' packets onto its uplink, first
 * with nothing on r, then with r's egress toward each side queued ({@code mangle POSTROUTING -o DEV
 * -j NFQUEUE}) to a delay line holding packets 0 ms (the line's own cost), 5 ms, and 5 ms +- 1 ms
 * (a verdict per packet instead of one per run). For each: an iperf3 TCP transfer (received rate,
 * retransmissions) and iperf3 UDP of 64-byte datagrams sent as fast as iperf3 can (delivered
 * packets per second, and how many of them the receiving socket dropped because its buffer was
 * full: iperf3's receiver, not the line, is then the limit), each against the plain path as a
 * ratio, with the CPU the lines' threads spent per packet (the kernel's work of sending a packet
 * on after its verdict included: it happens in the verdict's {@code send}); then the scheduler's
 * precision, pings through 5 ms lines: how late each verdict went out after its packet was due.
 *
 * <p>The namespaces are the benchmark's own ({@code pkbench<pid>-c|r|s}), removed at the end.
 *
 * <p>Usage: {@code DelayLineBenchmark [SECONDS]} (as root), 5 s per measurement unless given.
 */
public final class DelayLineBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RTT = Pattern.compile("rtt min/avg/max/mdev = ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+) ms");

    private record Case(String name, Duration delay, Duration jitter, boolean lined) {
    }

    private record Measured(Case what, double tcpBits, long retransmits, double udpPackets, double udpSent, long receiverOverflows,
                            List<DelayLineStatus> lines) {

        /** Microseconds of the lines' CPU per packet they delayed, both threads, both lines. */
        double cpuMicrosPerPacket() {
            double cpu = lines.stream().mapToDouble(DelayLineStatus::cpuMillis).sum();
            long packets = lines.stream().mapToLong(DelayLineStatus::delayed).sum();
            return packets == 0 ? 0 : cpu * 1000 / packets;
        }
    }

    private final CommandRunner runner;
    private final String prefix = "pkbench" + ProcessHandle.current().pid() + "-";
    private final int seconds;
    private final Path work;

    private DelayLineBenchmark(CommandRunner runner, int seconds, Path work) {
        this.runner = runner;
        this.seconds = seconds;
        this.work = work;
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        if (!NetworkNamespaces.runningAsRoot()) {
            System.err.println("DelayLineBenchmark: needs root to create network namespaces");
            System.exit(2);
        }
        Path work = Files.createTempDirectory("delay-line-benchmark");
        DelayLineBenchmark benchmark = new DelayLineBenchmark(ProcessCommandRunner.here().withTimeout(Duration.ofSeconds(seconds + 60L)), seconds, work);
        // A signal (Ctrl-C, a timeout) at any moment removes the namespaces and the server too; finally covers the rest.
        Thread onSignal = Thread.ofPlatform().unstarted(benchmark::removeAll);
        Runtime.getRuntime().addShutdownHook(onSignal);
        try {
            benchmark.run();
        } finally {
            benchmark.removeAll();
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException e) {
                // already shutting down: the hook finds nothing left
            }
        }
    }

    private String ns(String name) {
        return prefix + name;
    }

    private String in(String name, String... argv) {
        return runner.run(Command.of(argv).inNamespace(ns(name))).stdout();
    }

    private void build() {
        for (String name : List.of("c", "r", "s")) {
            runner.run(Command.of("ip", "netns", "add", ns(name)));
            in(name, "ip", "link", "set", "lo", "up");
            in(name, "sysctl", "-qw", "net.ipv4.ip_forward=1");
        }
        link("c", "cr", "10.77.1.2/24", "r", "rc", "10.77.1.1/24");
        link("s", "sr", "10.77.2.2/24", "r", "rs", "10.77.2.1/24");
        in("c", "ip", "route", "add", "10.77.2.0/24", "via", "10.77.1.1");
        in("s", "ip", "route", "add", "10.77.1.0/24", "via", "10.77.2.1");
        in("s", "iperf3", "-s", "-D", "-B", "10.77.2.2", "--pidfile", work.resolve("iperf3.pid").toString());
    }

    private void link(String a, String aDev, String aAddr, String b, String bDev, String bAddr) {
        in(a, "ip", "link", "add", aDev, "type", "veth", "peer", "name", bDev, "netns", ns(b));
        in(a, "ip", "addr", "add", aAddr, "dev", aDev);
        in(b, "ip", "addr", "add", bAddr, "dev", bDev);
        in(a, "ip", "link", "set", aDev, "up");
        in(b, "ip", "link", "set", bDev, "up");
    }

    private void run() throws IOException, InterruptedException {
        System.out.printf(Locale.ROOT, "delay line benchmark: c -> r -> s, %d s per measurement, %d cores, load average %s%n", seconds,
                Runtime.getRuntime().availableProcessors(), loadAverage());
        build();
        Thread.sleep(300);
        List<Case> cases = List.of(
                new Case("plain veths through r", Duration.ZERO, Duration.ZERO, false),
                new Case("delay line 0 ms each way", Duration.ZERO, Duration.ZERO, true),
                new Case("delay line 5 ms each way", Duration.ofMillis(5), Duration.ZERO, true),
                new Case("delay line 5 ms +- 1 ms each way", Duration.ofMillis(5), Duration.ofMillis(1), true));
        List<Measured> results = new ArrayList<>();
        for (Case c : cases) {
            results.add(measure(c));
        }
        Measured plain = results.getFirst();
        System.out.println();
        System.out.printf(Locale.ROOT, "%-34s %14s %6s %6s %24s %6s %9s %9s %s%n", "path", "TCP", "ratio", "retr",
                "UDP 64 B delivered (sent)", "ratio", "rcvbuf/s", "CPU/pkt", "per line: verdict lateness p50 / p99, drops");
        for (Measured m : results) {
            String lateness = m.lines().isEmpty() ? "" : m.lines().stream()
                    .map(l -> String.format(Locale.ROOT, "%.0f / %.0f us, %d", l.lateness().p50Micros(), l.lateness().p99Micros(),
                            l.droppedQueueFull() + l.droppedUndelivered()))
                    .reduce((x, y) -> x + "; " + y).orElse("");
            System.out.printf(Locale.ROOT, "%-34s %9.0f Mb/s %6.2f %6d %11.0f (%6.0f) pkt/s %6.2f %9.0f %9s %s%n", m.what().name(),
                    m.tcpBits() / 1e6, m.tcpBits() / plain.tcpBits(), m.retransmits(), m.udpPackets(), m.udpSent(),
                    m.udpPackets() / plain.udpPackets(), m.receiverOverflows() / (double) seconds, m.lines().isEmpty() ? "" : String.format(Locale.ROOT, "%.1f us", m.cpuMicrosPerPacket()),
                    lateness);
        }
        String[] wmem = in("c", "sysctl", "-n", "net.ipv4.tcp_wmem").strip().split("\\s+");
        long sendBuffer = Long.parseLong(wmem[wmem.length - 1]);
        System.out.printf(Locale.ROOT, "TCP's own bound with 5 ms each way: its largest send buffer (tcp_wmem %d bytes) per 10 ms round trip"
                + " = %.0f Mbit/s%n", sendBuffer, sendBuffer * 8 / 0.010 / 1e6);
        System.out.println();
        precision();
        System.out.println("load average " + loadAverage() + ", kernel " + read("/proc/sys/kernel/osrelease"));
    }

    private Measured measure(Case c) throws IOException, InterruptedException {
        try (DelayLines lines = new DelayLines(line -> { })) {
            if (c.lined()) {
                in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rs", "-j", "NFQUEUE", "--queue-num", "1");
                in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rc", "-j", "NFQUEUE", "--queue-num", "2");
                lines.reconcile(List.of(new DelayLineSpec(ns("r"), 1, c.delay(), c.jitter()), new DelayLineSpec(ns("r"), 2, c.delay(), c.jitter())));
            }
            JsonNode tcp = iperf("-t", Integer.toString(seconds));
            double tcpBits = tcp.path("end").path("sum_received").path("bits_per_second").asDouble();
            long retransmits = tcp.path("end").path("sum_sent").path("retransmits").asLong();
            long overflowsBefore = udpReceiveBufferErrors();
            JsonNode udp = iperf("-u", "-b", "0", "-l", "64", "-t", Integer.toString(seconds));
            long receiverOverflows = udpReceiveBufferErrors() - overflowsBefore;
            JsonNode received = udp.path("end").path("sum_received");
            double udpPackets = received.path("bytes").asDouble() / 64 / Math.max(1e-9, received.path("seconds").asDouble());
            JsonNode sent = udp.path("end").path("sum_sent");
            double udpSent = sent.path("bytes").asDouble() / 64 / Math.max(1e-9, sent.path("seconds").asDouble());
            List<DelayLineStatus> statuses = new ArrayList<>(lines.status().values());
            System.out.printf(Locale.ROOT, "%-34s TCP %.0f Mbit/s (%d retransmissions), UDP %.0f packets/s delivered of %.0f sent"
                            + " (%d dropped by the receiving socket's full buffer)%s%n", c.name(), tcpBits / 1e6, retransmits, udpPackets, udpSent,
                    receiverOverflows, statuses.isEmpty() ? "" : "; lines: " + statuses);
            return new Measured(c, tcpBits, retransmits, udpPackets, udpSent, receiverOverflows, statuses);
        } finally {
            if (c.lined()) {
                in("r", "iptables", "-t", "mangle", "-F", "POSTROUTING");
            }
        }
    }

    /** {@code Udp: RcvbufErrors} of s: datagrams its sockets dropped because their receive buffer was full. */
    private long udpReceiveBufferErrors() {
        List<String> udp = in("s", "cat", "/proc/net/snmp").lines().filter(l -> l.startsWith("Udp: ")).toList();
        List<String> names = List.of(udp.get(0).split("\\s+"));
        return Long.parseLong(udp.get(1).split("\\s+")[names.indexOf("RcvbufErrors")]);
    }

    private JsonNode iperf(String... options) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("iperf3", "-c", "10.77.2.2", "-J"));
        argv.addAll(List.of(options));
        for (int attempt = 0; ; attempt++) {
            var result = runner.execute(new Command(argv, "").inNamespace(ns("c")));
            JsonNode json = JSON.readTree(result.stdout().isBlank() ? "{}" : result.stdout());
            if (json.path("end").has("sum_received") || attempt == 20) {
                if (!json.path("end").has("sum_received")) {
                    throw new IllegalStateException("iperf3 " + String.join(" ", options) + " reported no result: " + result.stdout());
                }
                return json;
            }
            Thread.sleep(200);    // the server is busy with the last test or not listening yet
        }
    }

    /** 500 pings 10 ms apart through two 5 ms lines: the round trip against 10 ms, and how late the verdicts went. */
    private void precision() {
        try (DelayLines lines = new DelayLines(line -> { })) {
            in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rs", "-j", "NFQUEUE", "--queue-num", "1");
            in("r", "iptables", "-t", "mangle", "-A", "POSTROUTING", "-o", "rc", "-j", "NFQUEUE", "--queue-num", "2");
            lines.reconcile(List.of(new DelayLineSpec(ns("r"), 1, Duration.ofMillis(5), Duration.ZERO),
                    new DelayLineSpec(ns("r"), 2, Duration.ofMillis(5), Duration.ZERO)));
            String out = in("c", "ping", "-q", "-c", "500", "-i", "0.01", "10.77.2.2");
            Matcher rtt = RTT.matcher(out);
            System.out.println("precision: 500 pings 10 ms apart through two 5 ms lines: "
                    + (rtt.find() ? "rtt min/avg/max/mdev " + rtt.group(1) + "/" + rtt.group(2) + "/" + rtt.group(3) + "/" + rtt.group(4)
                    + " ms against 10 ms" : out.strip()));
            for (Map.Entry<String, DelayLineStatus> line : lines.status().entrySet()) {
                HoldingSummary late = line.getValue().lateness();
                System.out.printf(Locale.ROOT, "  %s: %d verdicts, late by p50 %.1f us, p90 %.1f us, p99 %.1f us, max %.1f us%n",
                        line.getKey().substring(prefix.length()), late.count(), late.p50Micros(), late.p90Micros(), late.p99Micros(),
                        late.maxMicros());
            }
        } finally {
            in("r", "iptables", "-t", "mangle", "-F", "POSTROUTING");
        }
    }

    private static String loadAverage() {
        return String.join(" ", List.of(read("/proc/loadavg").split(" ")).subList(0, 3));
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file)).strip();
        } catch (IOException e) {
            return "unknown unknown unknown";
        }
    }

    /** Idempotent: the shutdown hook and the finally may both run it. */
    private synchronized void removeAll() {
        try {
            Path pidFile = work.resolve("iperf3.pid");
            if (Files.exists(pidFile)) {
                runner.execute(Command.of("kill", Files.readString(pidFile).strip()));
            }
        } catch (IOException e) {
            // the server ends with its namespace's last process anyway
        }
        for (String name : List.of("c", "r", "s")) {
            runner.execute(Command.of("ip", "netns", "del", ns(name)));
        }
        try (var files = Files.list(work)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(work);
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
