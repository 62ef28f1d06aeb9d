package io.periscope.lab.dns;

import io.periscope.dns.ClustersetZone;
import io.periscope.dns.DnsServer;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.model.net.Ipv4Address;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A cluster's DNS server inside one of the lab's namespaces, on a port (53 unless told otherwise) of
 * an address of that namespace. The sockets are opened from a thread that entered
 * the namespace, so they belong to it; netty's event loop then serves them from any thread.
 */
public final class NamespaceDnsServer implements AutoCloseable {

    public static final int PORT = 53;

    private final DnsServer server;

    private NamespaceDnsServer(DnsServer server) {
        this.server = server;
    }

    /** @param address an address already on an interface of {@code namespace} */
    public static NamespaceDnsServer start(String namespace, Ipv4Address address, ClustersetZone zone) {
        return start(namespace, address, PORT, zone);
    }

    /** The same on another port (the lab's cluster servers listen behind their Service's DNAT, see {@code ClusterDns}). */
    public static NamespaceDnsServer start(String namespace, Ipv4Address address, int port, ClustersetZone zone) {
        try (NamespaceThread thread = NamespaceThread.enter(namespace)) {
            return thread.call(() -> {
                try {
                    return new NamespaceDnsServer(DnsServer.start(
                            new InetSocketAddress(InetAddress.getByName(address.toString()), port), zone, 1));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot serve DNS on " + address + ":" + port + " in namespace " + namespace, e);
                }
            });
        }
    }

    public InetSocketAddress address() {
        return server.address();
    }

    @Override
    public void close() {
        server.close();
    }
}
