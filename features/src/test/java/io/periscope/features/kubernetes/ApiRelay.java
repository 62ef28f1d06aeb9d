package io.periscope.features.kubernetes;

import io.periscope.lab.netns.NamespaceThread;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The way from one lab namespace to the API servers of this JVM: for each API server, a listening
 * socket on the namespace's own loopback ({@code 127.0.0.1}, the port the API server has in this
 * JVM), opened by a thread inside the namespace so that it belongs to it, and a relay of the bytes
 * of every connection accepted there to the API server. The agent processes in the namespace reach
 * their API server as {@code http://127.0.0.1:PORT}, as a kubeconfig names it.
 *
 * <p>Why loopback and not a network: nothing is added to the namespace but listening sockets (no
 * interface, address, route or rule), so the steps that read every route, rule and interface of a
 * node read only what the lab and the agents put there; no packet leaves the namespace for the API;
 * and the machine's own namespace is not wired to the lab (the relay's far side is this JVM's own
 * connection to its own API server). The lab's blackhole keeps loopback, so a blackholed gateway
 * keeps its API (its health checks and dataplane fail, its Lease holds).
 */
final class ApiRelay implements AutoCloseable {

    private final String namespace;
    private final List<ServerSocket> listening = new ArrayList<>();
    private final Set<Integer> ports = new java.util.HashSet<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final List<Thread> accepting = new ArrayList<>();
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicLong accepted = new java.util.concurrent.atomic.AtomicLong();

    private ApiRelay(String namespace) {
        this.namespace = namespace;
    }

    /** A relay for {@code namespace} that listens for nothing yet ({@link #reach}). */
    static ApiRelay open(String namespace) {
        return new ApiRelay(namespace);
    }

    /**
     * Listens in the namespace on 127.0.0.1, at the port of every API server of {@code apiServers}
     * not yet reached, and relays to that server. Call it from a thread of the machine's namespace:
     * the relayed connections are opened from the accepting threads, which inherit it.
     */
    synchronized ApiRelay reach(List<InetSocketAddress> apiServers) {
        List<InetSocketAddress> missing = apiServers.stream().filter(a -> !ports.contains(a.getPort())).toList();
        if (missing.isEmpty()) {
            return this;
        }
        try (NamespaceThread inside = NamespaceThread.enter(namespace)) {
            for (InetSocketAddress target : missing) {
                int port = target.getPort();
                ServerSocket socket = inside.call(() -> {
                    ServerSocket s = new ServerSocket();
                    s.setReuseAddress(true);
                    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    return s;
                });
                listening.add(socket);
                ports.add(port);
                accepting.add(Thread.ofPlatform().daemon().name("api-relay-" + namespace + "-" + port).start(() -> accept(socket, target)));
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot open the API relay in namespace " + namespace + ": " + e.getMessage(), e);
        }
        return this;
    }

    String namespace() {
        return namespace;
    }

    /** How many connections the relay has carried to an API server so far. */
    long carried() {
        return accepted.get();
    }

    private void accept(ServerSocket socket, InetSocketAddress target) {
        // The relayed connections leave from this JVM's own namespace, whichever thread started the relay.
        io.periscope.lab.netns.NetworkNamespaces.enterTheProcessNamespace();
        while (!closed) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                return;
            }
            if (closed) {
                // Accepted while the relay closed: refused as a closed relay would.
                closeQuietly(client);
                return;
            }
            Socket server;
            try {
                server = new Socket(target.getAddress(), target.getPort());
            } catch (IOException e) {
                // The agent's client retries; the line says why it could not get through.
                System.err.println("[api-relay] " + namespace + ": cannot reach the API server at " + target + ": " + e.getMessage());
                closeQuietly(client);
                continue;
            }
            accepted.incrementAndGet();
            open.add(client);
            open.add(server);
            Thread.ofVirtual().start(() -> copy(client, server));
            Thread.ofVirtual().start(() -> copy(server, client));
        }
    }

    /** Copies one direction; at its end both sockets close, so the other direction ends too. */
    private void copy(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            byte[] buffer = new byte[16 * 1024];
            int read;
            while ((read = in.read(buffer)) >= 0) {
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // A peer went away: the connection ends, as it would on a broken network.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // Closing anyway.
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (ServerSocket socket : listening) {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        List.copyOf(open).forEach(this::closeQuietly);
        // Closing a listening socket that a thread blocks in accept() on only takes it out of the
        // descriptor table: the kernel keeps it listening until that accept() returns. Waiting for
        // the accepting threads makes "closed" mean no connection to the port is taken any more.
        for (Thread thread : accepting) {
            try {
                if (!thread.join(java.time.Duration.ofSeconds(10))) {
                    throw new IllegalStateException("the API relay of namespace " + namespace + " still accepts 10 s after it closed: " + thread.getName());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
