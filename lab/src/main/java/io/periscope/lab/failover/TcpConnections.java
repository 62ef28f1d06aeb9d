package io.periscope.lab.failover;

import io.periscope.dataplane.netns.NetworkNamespaces;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A few long-lived TCP connections, each writing a small numbered record every 10 ms, so that what a
 * failure does to an established connection shows: it survives (records keep arriving), it is reset
 * (an error on either end), or it stalls (still open, nothing arriving at the end).
 */
public final class TcpConnections implements AutoCloseable {

    static final int RECORDS_PER_SECOND = 100;

    record Connection(int id, String flow, String sourceNamespace, String sourceIp, String destination, int port) {
    }

    /** One connection's fate: longest time without a record arriving, and how it ended. */
    public record Outcome(int id, String flow, int sourcePort, String fate, long recordsArrived, long longestSilenceMillis, String error) {
    }

    private final List<Connection> connections;
    private final List<ServerSocketChannel> servers = new ArrayList<>();
    private final List<SocketChannel> clients = new ArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Tracker[] trackers;
    private volatile boolean stopping;

    private static final class Tracker {
        volatile long arrived;
        volatile long lastArrival;
        volatile long longestSilence;
        volatile String error = "";
        volatile boolean connected;
        volatile int port;
    }

    TcpConnections(List<Connection> connections) {
        this.connections = List.copyOf(connections);
        this.trackers = new Tracker[connections.size()];
        for (int i = 0; i < trackers.length; i++) {
            trackers[i] = new Tracker();
        }
    }

    /** Listens in every receiver namespace, then connects every client (failing connections are recorded as such). */
    void open(List<String> receiverNamespaces, java.util.Set<Integer> ports) {
        for (String namespace : receiverNamespaces) {
            for (int port : ports) {
                ServerSocketChannel server = NetworkNamespaces.createIn(namespace, "tcp-server", () -> listen(port));
                servers.add(server);
                threads.add(Thread.ofPlatform().daemon().name("tcp-accept-" + namespace).start(() -> accept(server)));
            }
        }
        for (Connection connection : connections) {
            Tracker tracker = trackers[connection.id()];
            try {
                SocketChannel client = NetworkNamespaces.createIn(connection.sourceNamespace(), "tcp-client", () -> connect(connection));
                clients.add(client);
                tracker.connected = true;
                tracker.port = client.socket().getLocalPort();
                threads.add(Thread.ofPlatform().daemon().name("tcp-write-" + connection.id()).start(() -> write(client, connection.id())));
            } catch (RuntimeException e) {
                tracker.error = "cannot connect: " + e.getMessage();
            }
        }
    }

    private static ServerSocketChannel listen(int port) {
        try {
            ServerSocketChannel server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(port));
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on TCP port " + port + ": " + e.getMessage(), e);
        }
    }

    private static SocketChannel connect(Connection connection) {
        try {
            SocketChannel channel = SocketChannel.open();
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            // An ephemeral port: a fixed one could still be held by a connection of an earlier run (TIME_WAIT).
            channel.bind(new InetSocketAddress(connection.sourceIp(), 0));
            channel.socket().connect(new InetSocketAddress(connection.destination(), connection.port()), 3000);
            return channel;
        } catch (IOException e) {
            throw new UncheckedIOException(connection.destination() + ":" + connection.port() + ": " + e.getMessage(), e);
        }
    }

    private void accept(ServerSocketChannel server) {
        while (!stopping) {
            try {
                SocketChannel accepted = server.accept();
                threads.add(Thread.ofPlatform().daemon().name("tcp-read").start(() -> read(accepted)));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void read(SocketChannel channel) {
        ByteBuffer buffer = ByteBuffer.allocate(8);
        try (channel) {
            while (!stopping) {
                buffer.clear();
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer) < 0) {
                        return;
                    }
                }
                buffer.flip();
                int id = buffer.getInt();
                if (id < 0 || id >= trackers.length) {
                    return;
                }
                Tracker tracker = trackers[id];
                long now = System.nanoTime();
                if (tracker.lastArrival != 0) {
                    tracker.longestSilence = Math.max(tracker.longestSilence, now - tracker.lastArrival);
                }
                tracker.lastArrival = now;
                tracker.arrived++;
            }
        } catch (IOException e) {
            // the client's side records what happened to the connection
        }
    }

    private void write(SocketChannel channel, int id) {
        ByteBuffer buffer = ByteBuffer.allocate(8);
        int sequence = 0;
        try {
            while (!stopping) {
                buffer.clear();
                buffer.putInt(id).putInt(sequence++).flip();
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                Thread.sleep(1000 / RECORDS_PER_SECOND);
            }
        } catch (IOException e) {
            if (!stopping) {
                trackers[id].error = String.valueOf(e.getMessage());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The source port of each connection that connected, by its id. */
    java.util.Map<Integer, Integer> connectedPorts() {
        java.util.Map<Integer, Integer> ports = new java.util.TreeMap<>();
        for (Connection connection : connections) {
            Tracker tracker = trackers[connection.id()];
            if (tracker.connected) {
                ports.put(connection.id(), tracker.port);
            }
        }
        return ports;
    }

    List<Connection> connections() {
        return connections;
    }

    /** Each connection's fate, judged at {@code now}: stalled when nothing arrived in the last {@code stallAfterMillis}. */
    List<Outcome> outcomes(long stallAfterMillis) {
        long now = System.nanoTime();
        List<Outcome> outcomes = new ArrayList<>();
        for (Connection connection : connections) {
            Tracker tracker = trackers[connection.id()];
            String fate;
            if (!tracker.connected) {
                fate = "never connected";
            } else if (!tracker.error.isEmpty()) {
                fate = "reset";
            } else if (tracker.lastArrival == 0 || (now - tracker.lastArrival) / 1_000_000 > stallAfterMillis) {
                fate = "stalled";
            } else {
                fate = "survived";
            }
            long silence = Math.max(tracker.longestSilence, tracker.lastArrival == 0 ? 0 : now - tracker.lastArrival);
            outcomes.add(new Outcome(connection.id(), connection.flow(), tracker.port, fate, tracker.arrived,
                    silence / 1_000_000, tracker.error));
        }
        return outcomes;
    }

    @Override
    public void close() {
        stopping = true;
        for (SocketChannel client : clients) {
            try {
                client.close();
            } catch (IOException e) {
                // already reset
            }
        }
        for (ServerSocketChannel server : servers) {
            try {
                server.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }
}
