package io.periscope.lab.failover;

import io.periscope.dataplane.netns.NetworkNamespaces;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * N UDP streams at a fixed rate each, every datagram carrying its stream's number and a sequence
 * number. Each sender socket is opened inside its source's namespace (with a source port of its own,
 * so the kernel's multipath hash spreads the streams over the paths); each receiver socket inside a
 * namespace the flow can end in. Sockets keep their namespace once opened, so one thread paces all
 * senders: stream {@code i}'s datagram {@code k} is due at {@code start + k / rate}.
 */
final class UdpStreams implements AutoCloseable {

    static final int MAGIC = 0x50534346; // "PSCF"

    /** One stream: where it starts, from which port, to where. */
    record Stream(int id, String flow, String sourceNamespace, String sourceIp, int sourcePort, String destination, int port) {
    }

    private final List<Stream> streams;
    private final int rate;
    private final List<DatagramChannel> senders = new ArrayList<>();
    private final List<InetSocketAddress> destinations = new ArrayList<>();
    private final Map<String, DatagramChannel> receivers = new LinkedHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final SequencedStream[] records;
    private final AtomicInteger sendErrors = new AtomicInteger();
    private volatile boolean stopping;
    private volatile long startNanos;
    private final List<Thread> pacers = new ArrayList<>();

    UdpStreams(List<Stream> streams, int rate) {
        this.streams = List.copyOf(streams);
        this.rate = rate;
        this.records = new SequencedStream[streams.size()];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SequencedStream();
        }
    }

    /** Opens a receiver on {@code port} in each of {@code namespaces}, then every sender. */
    void open(List<String> receiverNamespaces, java.util.Set<Integer> ports) {
        for (String namespace : receiverNamespaces) {
            for (int port : ports) {
                DatagramChannel channel = NetworkNamespaces.createIn(namespace, "udp-receiver", () -> bind(new InetSocketAddress(port)));
                receivers.put(namespace + ":" + port, channel);
                Thread thread = Thread.ofPlatform().daemon().name("udp-receive-" + namespace).start(() -> receive(channel));
                threads.add(thread);
            }
        }
        for (Stream stream : streams) {
            // Not connected, though a connected socket would skip the per-datagram address checks: connect()
            // gives a socket a random flow hash that its packets carry, and the nodes would route by that
            // hash instead of hashing the 5-tuple, so no stream's path could be predicted.
            senders.add(NetworkNamespaces.createIn(stream.sourceNamespace(), "udp-sender",
                    () -> bind(new InetSocketAddress(stream.sourceIp(), stream.sourcePort()))));
            destinations.add(new InetSocketAddress(stream.destination(), stream.port()));
        }
    }

    /**
     * Starts sending. The streams are split over a few threads: the kernel does the sending's work
     * (routing, netfilter, encapsulation) on the sending thread, and one thread cannot carry 64
     * streams at 1,000 pps on a small machine.
     */
    void start() {
        startNanos = System.nanoTime();
        int threads = Math.min(PACERS, streams.size());
        for (int t = 0; t < threads; t++) {
            int first = t;
            pacers.add(Thread.ofPlatform().name("udp-pacer-" + t).start(() -> pace(first, threads)));
        }
    }

    static final int PACERS = 2;

    /** Nanoseconds since {@link #start()} at which datagram {@code k} of every stream is due. */
    long dueAt(int k) {
        return k * 1_000_000_000L / rate;
    }

    /** How many datagrams each stream has sent so far. */
    int[] sentSoFar() {
        int[] sent = new int[records.length];
        for (int i = 0; i < records.length; i++) {
            sent[i] = records[i].sent();
        }
        return sent;
    }

    /** Datagrams sent per second per stream, on average so far (below the rate when the machine could not keep up). */
    double achievedRate() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return seconds <= 0 ? 0 : java.util.Arrays.stream(sentSoFar()).average().orElse(0) / seconds;
    }

    SequencedStream record(int stream) {
        return records[stream];
    }

    int sendErrors() {
        return sendErrors.get();
    }

    private void pace(int first, int step) {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        int k = 0;
        while (!stopping) {
            long wait = startNanos + dueAt(k) - System.nanoTime();
            if (wait > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
                continue;
            }
            for (int i = first; i < streams.size(); i += step) {
                Stream stream = streams.get(i);
                long now = System.nanoTime();
                buffer.clear();
                buffer.putInt(MAGIC).putInt(stream.id()).putInt(k).putLong(now);
                buffer.flip();
                records[i].sending(k, now);
                try {
                    if (senders.get(i).send(buffer, destinations.get(i)) == 0) {
                        sendErrors.incrementAndGet();
                    }
                } catch (IOException e) {
                    // No route or no buffer: the datagram is lost, as the receiver will see.
                    sendErrors.incrementAndGet();
                }
            }
            k++;
        }
    }

    /** Until the channel is closed: datagrams still in flight when the senders stop count as received. */
    private void receive(DatagramChannel channel) {
        ByteBuffer buffer = ByteBuffer.allocate(256);
        while (channel.isOpen()) {
            buffer.clear();
            try {
                channel.receive(buffer);
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!channel.isOpen()) {
                    return;
                }
                continue;
            }
            buffer.flip();
            if (buffer.remaining() < 12 || buffer.getInt() != MAGIC) {
                continue;
            }
            int id = buffer.getInt();
            int sequence = buffer.getInt();
            if (id >= 0 && id < records.length) {
                records[id].arrived(sequence);
            }
        }
    }

    /** Stops sending, waits {@code linger} for datagrams in flight, then closes every socket. */
    void stop(java.time.Duration linger) {
        if (!pacers.isEmpty()) {
            stopping = true;
            try {
                for (Thread pacer : pacers) {
                    pacer.join();
                }
                Thread.sleep(linger);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        close();
    }

    private static DatagramChannel bind(InetSocketAddress address) {
        try {
            DatagramChannel channel = DatagramChannel.open(java.net.StandardProtocolFamily.INET);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            channel.bind(address);
            return channel;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a UDP socket on " + address + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        stopping = true;
        for (DatagramChannel channel : senders) {
            closeQuietly(channel);
        }
        for (DatagramChannel channel : receivers.values()) {
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(DatagramChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing a socket we no longer read
        }
    }
}
