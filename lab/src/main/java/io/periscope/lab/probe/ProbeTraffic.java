package io.periscope.lab.probe;

import io.periscope.lab.netns.NamespaceThread;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.model.net.Ipv4Address;

import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.ConnectException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Sends one probe from the source host: a TCP connection that echoes a payload, a UDP datagram and
 * its answer, or one ICMP echo through {@code ping}. The socket is bound to an explicit source port,
 * so the connection's 5-tuple, and with it the kernel's multipath choice, is known.
 */
public final class ProbeTraffic {

    /** Echo requests carry 8 bytes of ICMP header and 20 of IP header around {@code ping -s} bytes. */
    static final int ICMP_OVERHEAD = 28;
    /**
     * Lab round trips take well under a millisecond; what matters is the first transmission and its
     * answer, so a probe whose answer has not come by then has failed, and waiting for TCP's
     * retransmissions would only slow the probe down.
     */
    static final Duration TIMEOUT = Duration.ofMillis(400);

    private final CommandRunner runner;
    private final String pingProgram;
    private final int timeoutMillis;

    public ProbeTraffic(CommandRunner runner) {
        this(runner, TIMEOUT);
    }

    /** @param timeout how long an answer is waited for: {@link #TIMEOUT} plus what the links' delays add (see {@code LinkTimings}) */
    public ProbeTraffic(CommandRunner runner, Duration timeout) {
        this.runner = runner;
        this.pingProgram = findPing(runner);
        this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    /** @return empty when the source port is still held by a connection of an earlier run (nothing was sent) */
    public Optional<AttemptOutcome> tcp(NamespaceThread source, ProbeTarget target, int sourcePort, String payload) {
        return source.call(() -> {
            try (Socket socket = new Socket()) {
                socket.setReuseAddress(true);
                // Closing resets the connection instead of leaving it in TIME_WAIT or FIN_WAIT, so
                // the same 5-tuple is free for the next probe run.
                socket.setSoLinger(true, 0);
                Optional<Ipv4Address> local = Optional.empty();
                try {
                    socket.bind(new InetSocketAddress(bindAddress(target), sourcePort));
                    socket.connect(new InetSocketAddress(inet(target.destination()), target.port()), timeoutMillis);
                    local = Optional.of(Ipv4Address.parse(socket.getLocalAddress().getHostAddress()));
                    socket.setSoTimeout(timeoutMillis);
                    byte[] sent = payload.getBytes(StandardCharsets.US_ASCII);
                    socket.getOutputStream().write(sent);
                    byte[] echoed = readFully(socket.getInputStream(), sent.length);
                    if (!Arrays.equals(sent, echoed)) {
                        return Optional.of(new AttemptOutcome(sourcePort, 0, "", local, "dropped",
                                Optional.of("the echo came back different")));
                    }
                    return Optional.of(new AttemptOutcome(sourcePort, 0, "", local, "delivered", Optional.empty()));
                } catch (BindException e) {
                    return Optional.<AttemptOutcome>empty();
                } catch (IOException e) {
                    return Optional.of(new AttemptOutcome(sourcePort, 0, "", local, disposition(e), Optional.of(describe(e))));
                }
            }
        });
    }

    /** @return empty when the source port is still held by a socket of an earlier run (nothing was sent) */
    public Optional<AttemptOutcome> udp(NamespaceThread source, ProbeTarget target, int sourcePort, String marker) {
        return source.call(() -> {
            try (DatagramSocket socket = new DatagramSocket(null)) {
                socket.setReuseAddress(true);
                socket.setSoTimeout(timeoutMillis);
                byte[] request = request(marker, target);
                if (target.sized()) {
                    // IP_PMTUDISC_DO, as the simulator sends a sized flow: Don't Fragment, and EMSGSIZE
                    // instead of fragments when the socket's own device is too small.
                    socket.setOption(jdk.net.ExtendedSocketOptions.IP_DONTFRAGMENT, true);
                }
                Optional<Ipv4Address> local = Optional.empty();
                try {
                    socket.bind(new InetSocketAddress(bindAddress(target), sourcePort));
                    socket.connect(new InetSocketAddress(inet(target.destination()), target.port()));
                    local = Optional.of(Ipv4Address.parse(socket.getLocalAddress().getHostAddress()));
                    socket.send(new DatagramPacket(request, request.length));
                    byte[] buffer = new byte[EchoServers.LARGEST_DATAGRAM];
                    DatagramPacket answer = new DatagramPacket(buffer, buffer.length);
                    socket.receive(answer);
                    String text = new String(answer.getData(), 0, answer.getLength(), StandardCharsets.ISO_8859_1);
                    if (!text.startsWith(EchoServers.REPLY_MARK + marker) || answer.getLength() != request.length) {
                        return Optional.of(new AttemptOutcome(sourcePort, 0, marker, local, "dropped",
                                Optional.of("the answer came back different")));
                    }
                    return Optional.of(new AttemptOutcome(sourcePort, 0, marker, local, "delivered", Optional.empty()));
                } catch (BindException e) {
                    return Optional.<AttemptOutcome>empty();
                } catch (IOException e) {
                    return Optional.of(new AttemptOutcome(sourcePort, 0, marker, local, disposition(e), Optional.of(describe(e))));
                }
            }
        });
    }

    /** UDP and IP headers around a datagram's payload. */
    static final int UDP_OVERHEAD = 28;

    /** The request's payload: the marker, padded to the flow's size where it has one. */
    static byte[] request(String marker, ProbeTarget target) {
        String text = EchoServers.REQUEST_MARK + marker;
        if (target.sized() && target.size() - UDP_OVERHEAD > text.length()) {
            text = text + " ".repeat(target.size() - UDP_OVERHEAD - text.length());
        }
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * @param size the echo's data size, different for every probe so that each is recognised by its length
     *             (a sized flow's own, with Don't Fragment set: {@code ping -M do})
     */
    public AttemptOutcome icmp(String sourceNamespace, ProbeTarget target, int size) {
        // A sized flow's echo goes out as `ping -M do`: Don't Fragment, and an error instead of fragments.
        String fragmentation = target.sized() ? "do" : "want";
        Command ping = Command.of(pingProgram.equals("ping")
                ? new String[]{"ip", "netns", "exec", sourceNamespace, "ping", "-c", "1", "-W", pingWait(), "-M", fragmentation, "-s",
                String.valueOf(size), target.destination().toString()}
                : new String[]{"ip", "netns", "exec", sourceNamespace, "busybox", "ping", "-c", "1", "-W", pingWait(), "-s", String.valueOf(size),
                target.destination().toString()});
        // ping does not say which address it sent from; an unbound socket sends from the source the
        // kernel's route lookup picks, which the capture cannot tell where the sending host itself
        // SNATs the echo (a Globalnet gateway's own ping), so it is asked before the ping.
        Optional<Ipv4Address> local = target.sourceIp().or(() -> routeSource(sourceNamespace, target.destination()));
        CommandResult result = runner.execute(ping);
        int length = size + ICMP_OVERHEAD;
        if (result.succeeded()) {
            return new AttemptOutcome(0, length, "", local, "delivered", Optional.empty());
        }
        String said = (result.stdout() + " " + result.stderr()).toLowerCase(Locale.ROOT);
        String disposition = said.contains("network is unreachable") || said.contains("network unreachable") ? "no-route"
                : said.contains("unreachable") ? "unreachable" : "dropped";
        return new AttemptOutcome(0, length, "", local, disposition,
                Optional.of("ping: " + (result.stderr().isBlank() ? result.stdout() : result.stderr()).strip()));
    }

    /** ping's wait in whole seconds: one, or the timeout's when the links make it longer. */
    private String pingWait() {
        return String.valueOf(Math.max(1, (timeoutMillis + 999) / 1000));
    }

    /** The {@code src} of {@code ip -o route get DST} in the namespace: the address an unbound socket sends to DST from. */
    private Optional<Ipv4Address> routeSource(String namespace, Ipv4Address destination) {
        CommandResult route = runner.execute(Command.of("ip", "-n", namespace, "-o", "route", "get", destination.toString()));
        return route.succeeded() ? sourceOf(route.stdout()) : Optional.empty();
    }

    /** The address after {@code src} in one line of {@code ip -o route get}, e.g. {@code 242.1.0.1 dev t table 100 src 10.0.0.1 uid 0}. */
    static Optional<Ipv4Address> sourceOf(String routeGet) {
        String[] words = routeGet.strip().split("\\s+");
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals("src")) {
                try {
                    return Optional.of(Ipv4Address.parse(words[i + 1]));
                } catch (IllegalArgumentException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static String findPing(CommandRunner runner) {
        return runner.execute(Command.of("sh", "-c", "command -v ping")).succeeded() ? "ping" : "busybox";
    }

    private static InetAddress bindAddress(ProbeTarget target) throws IOException {
        return target.sourceIp().isPresent() ? inet(target.sourceIp().get()) : InetAddress.getByName("0.0.0.0");
    }

    private static InetAddress inet(Ipv4Address address) throws IOException {
        return InetAddress.getByAddress(new byte[]{(byte) address.octet(0), (byte) address.octet(1), (byte) address.octet(2),
                (byte) address.octet(3)});
    }

    private static byte[] readFully(InputStream input, int length) throws IOException {
        byte[] data = new byte[length];
        int read = 0;
        while (read < length) {
            int n = input.read(data, read, length - read);
            if (n < 0) {
                return Arrays.copyOf(data, read);
            }
            read += n;
        }
        return data;
    }

    /** The kernel's answer, as the socket got it, in the words of the trace dispositions. */
    static String disposition(IOException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (e instanceof NoRouteToHostException || message.contains("host is unreachable") || message.contains("no route to host")) {
            return "unreachable";
        }
        if (message.contains("network is unreachable")) {
            return "no-route";
        }
        if (e instanceof ConnectException && message.contains("refused")) {
            return "unreachable";
        }
        // A timeout, or a reset: the answer never came.
        return "dropped";
    }

    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
