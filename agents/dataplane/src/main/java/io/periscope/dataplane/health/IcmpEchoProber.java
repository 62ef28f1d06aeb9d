package io.periscope.dataplane.health;

import com.sun.jna.Native;
import io.periscope.dataplane.netns.NetworkNamespaces;
import io.periscope.model.net.Ipv4Address;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

import static io.periscope.dataplane.health.IcmpSockets.LIBC;

/**
 * Probes with ICMP echo requests over a raw socket, like upstream's health checker pings a remote
 * endpoint. The kernel of the probed node answers, not an agent: a gateway whose agent stopped but
 * whose datapath still forwards stays up, and one whose links or forwarding died goes down. Needs
 * {@code CAP_NET_RAW}. The socket lives in the namespace it was opened in; each prober marks its
 * requests with an identifier of its own and ignores every other ICMP packet the socket sees.
 */
public final class IcmpEchoProber implements Prober {

    private static final int ECHO_REQUEST = 8;
    private static final int ECHO_REPLY = 0;
    private static final byte[] PAYLOAD = "periscope-health".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final int fd;
    private final int identifier;
    private final byte[] buffer = new byte[1500];
    private int sequence;
    private boolean closed;

    private IcmpEchoProber(int fd) {
        this.fd = fd;
        this.identifier = new SecureRandom().nextInt(1 << 16);
    }

    /** A prober in the calling thread's network namespace. */
    public static IcmpEchoProber open() {
        int fd = LIBC.socket(IcmpSockets.AF_INET, IcmpSockets.SOCK_RAW | IcmpSockets.SOCK_CLOEXEC, IcmpSockets.IPPROTO_ICMP);
        if (fd < 0) {
            throw new IllegalStateException("cannot open a raw ICMP socket (needs CAP_NET_RAW): errno " + Native.getLastError());
        }
        return new IcmpEchoProber(fd);
    }

    /** A prober whose socket lives in the named network namespace ({@code /run/netns/NAME}); the calling thread stays where it is. */
    public static IcmpEchoProber openIn(String namespace) {
        return NetworkNamespaces.createIn(namespace, "icmp-prober", IcmpEchoProber::open);
    }

    @Override
    public synchronized Set<Ipv4Address> round(Collection<Ipv4Address> targets, Duration timeout) {
        if (closed || targets.isEmpty()) {
            return new HashSet<>();
        }
        Set<Ipv4Address> waiting = send(targets);
        return collect(waiting, System.nanoTime() + timeout.toNanos());
    }

    /** Sends this round's echo requests; the targets a request went out to. */
    synchronized Set<Ipv4Address> send(Collection<Ipv4Address> targets) {
        sequence = (sequence + 1) & 0xffff;
        Set<Ipv4Address> waiting = new HashSet<>();
        for (Ipv4Address target : targets) {
            byte[] request = echoRequest(identifier, sequence);
            byte[] address = socketAddress(target);
            if (LIBC.sendto(fd, request, request.length, 0, address, address.length) == request.length) {
                waiting.add(target);
            }
            // A send that fails (no route, the device down) is a lost probe, as it is for the traffic.
        }
        return waiting;
    }

    /**
     * The targets of {@code waiting} whose answers to this round are in by {@code deadline}
     * ({@link System#nanoTime}), or already queued when this thread gets to look: on a busy node the
     * thread may run again only after the deadline, and the answers that wait in the socket then came
     * in time; a gateway is not to be declared dead because its watcher was not scheduled.
     */
    synchronized Set<Ipv4Address> collect(Set<Ipv4Address> waiting, long deadline) {
        Set<Ipv4Address> answered = new HashSet<>();
        Set<Ipv4Address> pending = new HashSet<>(waiting);
        while (!pending.isEmpty()) {
            long length;
            while ((length = LIBC.recv(fd, buffer, buffer.length, IcmpSockets.MSG_DONTWAIT)) > 0) {
                replyFrom(buffer, (int) length, identifier, sequence).filter(pending::remove).ifPresent(answered::add);
            }
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (pending.isEmpty() || left <= 0) {
                break;
            }
            byte[] poll = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putInt(fd).putShort(IcmpSockets.POLLIN).putShort((short) 0).array();
            int ready = LIBC.poll(poll, 1, (int) left);
            if (ready < 0 && Native.getLastError() == IcmpSockets.EINTR) {
                continue;
            }
            if (ready <= 0) {
                break;
            }
        }
        return answered;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            LIBC.close(fd);
        }
    }

    /** An ICMP echo request: type, code, checksum, identifier, sequence, payload (the kernel adds the IP header). */
    static byte[] echoRequest(int identifier, int sequence) {
        ByteBuffer packet = ByteBuffer.allocate(8 + PAYLOAD.length).order(ByteOrder.BIG_ENDIAN);
        packet.put((byte) ECHO_REQUEST).put((byte) 0).putShort((short) 0)
                .putShort((short) identifier).putShort((short) sequence).put(PAYLOAD);
        byte[] bytes = packet.array();
        int checksum = checksum(bytes, 0, bytes.length);
        bytes[2] = (byte) (checksum >> 8);
        bytes[3] = (byte) checksum;
        return bytes;
    }

    /** The sender of an echo reply to this prober's current round, read from a raw socket's IP packet. */
    static java.util.Optional<Ipv4Address> replyFrom(byte[] packet, int length, int identifier, int sequence) {
        if (length < 20 || (packet[0] >> 4 & 0xf) != 4) {
            return java.util.Optional.empty();
        }
        int headerLength = (packet[0] & 0xf) * 4;
        if (length < headerLength + 8 || packet[9] != IcmpSockets.IPPROTO_ICMP) {
            return java.util.Optional.empty();
        }
        ByteBuffer icmp = ByteBuffer.wrap(packet, headerLength, length - headerLength).order(ByteOrder.BIG_ENDIAN);
        int type = icmp.get() & 0xff;
        icmp.get();
        icmp.getShort();
        int id = icmp.getShort() & 0xffff;
        int seq = icmp.getShort() & 0xffff;
        if (type != ECHO_REPLY || id != identifier || seq != sequence) {
            return java.util.Optional.empty();
        }
        int source = ByteBuffer.wrap(packet, 12, 4).order(ByteOrder.BIG_ENDIAN).getInt();
        return java.util.Optional.of(new Ipv4Address(source));
    }

    /** The Internet checksum (RFC 1071). */
    static int checksum(byte[] bytes, int offset, int length) {
        long sum = 0;
        for (int i = 0; i + 1 < length; i += 2) {
            sum += (bytes[offset + i] & 0xff) << 8 | bytes[offset + i + 1] & 0xff;
        }
        if (length % 2 == 1) {
            sum += (bytes[offset + length - 1] & 0xff) << 8;
        }
        while (sum >> 16 != 0) {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        return (int) ~sum & 0xffff;
    }

    /** {@code struct sockaddr_in}: family (host order), port 0, the address in network order, zero padding. */
    private static byte[] socketAddress(Ipv4Address target) {
        ByteBuffer address = ByteBuffer.allocate(16);
        address.order(ByteOrder.nativeOrder()).putShort((short) IcmpSockets.AF_INET);
        address.order(ByteOrder.BIG_ENDIAN).putShort((short) 0).putInt(target.bits());
        return address.array();
    }
}
