package io.periscope.lab.probe;

import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.trace.TracePacket;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Small servers inside the lab: a TCP echo and a UDP echo on each port, in every host namespace
 * given, each on a platform thread that entered its namespace before opening its socket. Servers
 * run everywhere a probe may end, because where a packet is delivered is what is being tested.
 * UDP sockets are bound per address, which tells the address a datagram was sent to; the answer
 * replaces the request's marker with the reply's, so the answer can be told apart in captures.
 */
public final class EchoServers implements AutoCloseable {

    public static final String REQUEST_MARK = "PSCQ";
    public static final String REPLY_MARK = "PSCR";
    /** The largest UDP payload an IPv4 packet holds: a sized flow's datagram is read whole. */
    public static final int LARGEST_DATAGRAM = 65507;
    private static final int POLL_MILLIS = 100;

    /** Every set of servers still open in this JVM, for {@link #closeEveryOpenServer}. */
    private static final Set<EchoServers> OPEN = ConcurrentHashMap.newKeySet();
    /** Set once {@link #closeEveryOpenServer} ran: servers started afterwards are refused. */
    private static volatile boolean closingAll;

    private final List<Thread> threads = new ArrayList<>();
    private final List<AutoCloseable> sockets = new ArrayList<>();
    /** The TCP connections being echoed, closed with the servers so that no thread stays in a read. */
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
    private volatile boolean stopping;

    private EchoServers() {
    }

    /** @throws IllegalStateException when a server cannot be opened (those already open are closed) */
    public static EchoServers start(Collection<HostNamespace> hosts, Set<Integer> tcpPorts, Set<Integer> udpPorts) {
        EchoServers servers = new EchoServers();
        OPEN.add(servers);
        if (closingAll) {
            OPEN.remove(servers);
            throw new IllegalStateException("interrupted: no server is started any more");
        }
        try {
            for (HostNamespace host : hosts) {
                for (int port : tcpPorts) {
                    servers.open(host, () -> {
                        ServerSocket socket = new ServerSocket();
                        socket.setReuseAddress(true);
                        socket.bind(new InetSocketAddress(port));
                        socket.setSoTimeout(POLL_MILLIS);
                        return socket;
                    }, socket -> servers.serveTcp(host.host(), (ServerSocket) socket));
                }
                for (int port : udpPorts) {
                    for (Ipv4Address address : addresses(host)) {
                        servers.open(host, () -> {
                            DatagramSocket socket = new DatagramSocket(null);
                            socket.setReuseAddress(true);
                            socket.bind(new InetSocketAddress(InetAddress.getByName(address.toString()), port));
                            socket.setSoTimeout(POLL_MILLIS);
                            return socket;
                        }, socket -> servers.serveUdp(host.host(), (DatagramSocket) socket));
                    }
                }
            }
        } catch (RuntimeException e) {
            servers.close();
            throw e;
        }
        return servers;
    }

    /** How many sockets, each with its thread, {@link #start} opens for these hosts and ports. */
    public static int sockets(Collection<HostNamespace> hosts, Set<Integer> tcpPorts, Set<Integer> udpPorts) {
        int sockets = 0;
        for (HostNamespace host : hosts) {
            sockets += tcpPorts.size() + (udpPorts.isEmpty() ? 0 : udpPorts.size() * addresses(host).size());
        }
        return sockets;
    }

    private static Set<Ipv4Address> addresses(HostNamespace host) {
        Set<Ipv4Address> all = new LinkedHashSet<>();
        for (Interface iface : host.plan().interfaces()) {
            all.addAll(iface.addresses());
        }
        host.plan().submariner().vxlanDevices().forEach(d -> all.add(d.address()));
        return all;
    }

    private interface SocketOpener {
        AutoCloseable open() throws IOException;
    }

    private interface SocketServer {
        void serve(AutoCloseable socket);
    }

    private void open(HostNamespace host, SocketOpener opener, SocketServer server) {
        CountDownLatch opened = new CountDownLatch(1);
        AtomicReference<String> problem = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().daemon().name("echo-" + host.namespace()).start(() -> {
            AutoCloseable socket;
            try {
                NetworkNamespaces.enter(host.namespace());
                socket = opener.open();
            } catch (IOException | RuntimeException e) {
                problem.set("cannot open a server in " + host.namespace() + ": " + e.getMessage());
                opened.countDown();
                return;
            }
            synchronized (sockets) {
                sockets.add(socket);
            }
            opened.countDown();
            server.serve(socket);
        });
        threads.add(thread);
        try {
            if (!opened.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("a server in " + host.namespace() + " did not open within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting servers");
        }
        if (problem.get() != null) {
            throw new IllegalStateException(problem.get());
        }
    }

    private void serveTcp(HostId host, ServerSocket server) {
        while (!stopping) {
            try (Socket connection = server.accept()) {
                connections.add(connection);
                deliveries.add(new Delivery(host, TracePacket.of(address(connection.getInetAddress()), address(connection.getLocalAddress()),
                        connection.getPort(), connection.getLocalPort(), Protocol.TCP)));
                connection.setSoTimeout(2_000);
                InputStream input = connection.getInputStream();
                OutputStream output = connection.getOutputStream();
                byte[] buffer = new byte[4096];
                int read;
                while ((read = input.read(buffer)) > 0) {
                    output.write(buffer, 0, read);
                    output.flush();
                }
            } catch (SocketTimeoutException e) {
                // no connection yet, or the client went quiet: look at the stop flag again
            } catch (IOException e) {
                // the client reset the connection (the probe closes with a reset) or the server was closed
            } finally {
                connections.removeIf(Socket::isClosed);
            }
        }
    }

    private void serveUdp(HostId host, DatagramSocket socket) {
        byte[] buffer = new byte[LARGEST_DATAGRAM];
        while (!stopping) {
            DatagramPacket request = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(request);
                String text = new String(request.getData(), 0, request.getLength(), StandardCharsets.ISO_8859_1);
                deliveries.add(new Delivery(host, TracePacket.of(address(request.getAddress()), address(socket.getLocalAddress()),
                        request.getPort(), socket.getLocalPort(), Protocol.UDP)));
                String answer = text.startsWith(REQUEST_MARK) ? REPLY_MARK + text.substring(REQUEST_MARK.length()) : text;
                byte[] bytes = answer.getBytes(StandardCharsets.ISO_8859_1);
                socket.send(new DatagramPacket(bytes, bytes.length, request.getSocketAddress()));
            } catch (SocketTimeoutException e) {
                // nothing arrived: look at the stop flag again
            } catch (IOException e) {
                if (stopping) {
                    return;
                }
            }
        }
    }

    private static Ipv4Address address(InetAddress address) {
        return Ipv4Address.parse(address.getHostAddress());
    }

    /** The first delivery that matches, waiting up to {@code millis} for it. */
    public Optional<Delivery> awaitDelivery(java.util.function.Predicate<Delivery> which, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        do {
            for (Delivery delivery : deliveries) {
                if (which.test(delivery)) {
                    return Optional.of(delivery);
                }
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        } while (System.nanoTime() < deadline);
        return Optional.empty();
    }

    /**
     * Closes the sockets of every server still open, for a command that was interrupted: a thread
     * waiting in {@code accept} or {@code receive} is in native code, and the JVM's exit waits for
     * such threads (up to 300 ms, {@code -XX:UserThreadWaitAttemptsAtExit}) before it ends; with
     * their sockets closed they return at once. Their threads are not waited for.
     *
     * @return how many sets of servers were open
     */
    public static int closeEveryOpenServer() {
        closingAll = true;
        int open = 0;
        for (EchoServers servers : Set.copyOf(OPEN)) {
            servers.closeSockets();
            open++;
        }
        return open;
    }

    @Override
    public void close() {
        closeSockets();
        for (Thread thread : threads) {
            try {
                thread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        OPEN.remove(this);
    }

    private void closeSockets() {
        stopping = true;
        synchronized (sockets) {
            for (AutoCloseable socket : sockets) {
                try {
                    socket.close();
                } catch (Exception e) {
                    // closing is best effort; the thread ends on the stop flag anyway
                }
            }
        }
        for (Socket connection : connections) {
            try {
                connection.close();
            } catch (IOException e) {
                // closing is best effort, as for the servers
            }
        }
    }
}
