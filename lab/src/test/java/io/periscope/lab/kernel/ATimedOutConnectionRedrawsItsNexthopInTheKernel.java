package io.periscope.lab.kernel;

import io.periscope.dataplane.netns.NetworkNamespaces;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why {@code lab failover} counts a TCP connection's gateways over every packet it sent: a node
 * spreading over a multipath route with the L4 hash policy takes a forwarded TCP segment's hash
 * from the segment (the sending socket's random flow hash), not from its 5-tuple, and the sending
 * kernel draws the socket a new hash when a retransmission times out ({@code net.core.txrehash}, on
 * by default). So a connection whose segments go unanswered for a while can come back on another
 * nexthop: through another gateway, where Globalnet translates it anew and the server resets it.
 *
 * <p>Client c reaches 10.77.9.9, an address of server s, through router r, whose route to it has
 * two nexthops (links a and b, hash policy 1); s counts each connection's segments per link. Every
 * connection's segments are dropped at s for 1.5 s (time-outs at about 0.2, 0.6 and 1.4 s, each
 * redrawing the hash when on), then let through.
 */
class ATimedOutConnectionRedrawsItsNexthopInTheKernel {

    private static final int CONNECTIONS = 8;
    private static final int FIRST_PORT = 41000;
    private static final int SERVICE_PORT = 5555;

    private NamespaceRig rig;
    private final List<SocketChannel> clients = new ArrayList<>();
    private final List<SocketChannel> accepted = new ArrayList<>();
    private ServerSocketChannel server;

    @BeforeEach
    void build() {
        NamespaceRig.assumeUsable();
        // Older kernels redraw the hash on a time-out too, but without this switch the test cannot turn it off.
        Assumptions.assumeTrue(Files.exists(Path.of("/proc/sys/net/core/txrehash")),
                "this kernel has no net.core.txrehash (Linux 6.0 and later), which the test turns off and on");
        rig = NamespaceRig.clientRouterServer("rh");
        rig.link("r", "ra", "10.77.3.1/24", "s", "sa", "10.77.3.2/24")
                .link("r", "rb", "10.77.4.1/24", "s", "sb", "10.77.4.2/24");
        rig.in("s", "ip", "addr", "add", "10.77.9.9/32", "dev", "lo");
        rig.in("c", "ip", "route", "add", "10.77.9.9/32", "via", "10.77.1.1");
        rig.in("r", "sysctl", "-qw", "net.ipv4.fib_multipath_hash_policy=1");
        rig.in("r", "ip", "route", "add", "10.77.9.9/32", "nexthop", "via", "10.77.3.2", "nexthop", "via", "10.77.4.2");
        for (int i = 0; i < CONNECTIONS; i++) {
            for (String link : List.of("sa", "sb")) {
                rig.in("s", "iptables", "-t", "raw", "-A", "PREROUTING", "-i", link, "-p", "tcp", "--sport", Integer.toString(FIRST_PORT + i),
                        "--dport", Integer.toString(SERVICE_PORT));
            }
        }
        server = NetworkNamespaces.createIn(rig.ns("s"), "server", () -> {
            try {
                ServerSocketChannel listening = ServerSocketChannel.open();
                listening.bind(new InetSocketAddress("10.77.9.9", SERVICE_PORT), CONNECTIONS);
                return listening;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @AfterEach
    void remove() throws IOException {
        for (SocketChannel channel : clients) {
            channel.close();
        }
        for (SocketChannel channel : accepted) {
            channel.close();
        }
        if (server != null) {
            server.close();
        }
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void withRehashingOnSomeConnectionsComeBackOnTheOtherNexthop() throws Exception {
        assertThat(connectionsThatChangedLink(true)).as("connections whose segments reached s by both links").isPositive();
    }

    @Test
    void withRehashingOffEveryConnectionKeepsItsNexthop() throws Exception {
        assertThat(connectionsThatChangedLink(false)).as("connections whose segments reached s by both links").isZero();
    }

    /** Opens the connections (rehashing on or off in c), starves them for 1.5 s, and counts those that used both links. */
    private int connectionsThatChangedLink(boolean rehash) throws Exception {
        rig.in("c", "sysctl", "-qw", "net.core.txrehash=" + (rehash ? 1 : 0));
        for (int i = 0; i < CONNECTIONS; i++) {
            int port = FIRST_PORT + i;
            SocketChannel client = NetworkNamespaces.createIn(rig.ns("c"), "client", () -> {
                try {
                    SocketChannel channel = SocketChannel.open();
                    channel.bind(new InetSocketAddress("10.77.1.2", port));
                    channel.connect(new InetSocketAddress("10.77.9.9", SERVICE_PORT));
                    return channel;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            clients.add(client);
            accepted.add(server.accept());
        }
        rig.in("s", "iptables", "-A", "INPUT", "-p", "tcp", "--dport", Integer.toString(SERVICE_PORT), "-j", "DROP");
        for (SocketChannel client : clients) {
            client.write(ByteBuffer.wrap(new byte[] {1}));
        }
        Thread.sleep(1500);
        rig.in("s", "iptables", "-D", "INPUT", "-p", "tcp", "--dport", Integer.toString(SERVICE_PORT), "-j", "DROP");
        Thread.sleep(2000);
        int changed = 0;
        for (int i = 0; i < CONNECTIONS; i++) {
            String segment = "--sport " + (FIRST_PORT + i) + " --dport " + SERVICE_PORT;
            long viaA = rig.packets("s", "raw", "-i sa -p tcp -m tcp " + segment);
            long viaB = rig.packets("s", "raw", "-i sb -p tcp -m tcp " + segment);
            if (viaA > 0 && viaB > 0) {
                changed++;
            }
        }
        return changed;
    }
}
