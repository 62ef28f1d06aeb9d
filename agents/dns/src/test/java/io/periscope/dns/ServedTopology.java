package io.periscope.dns;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import io.periscope.planner.Planner;
import io.periscope.plan.dns.GatewayHealth;
import io.periscope.plan.dns.ServiceDiscovery;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The topology of {@code served.yaml} served by a real server on 127.0.0.1, on an ephemeral port,
 * for pods of cluster a. Used directly (try-with-resources), or registered as a JUnit extension on a
 * static field, which starts the server before a class's tests and stops it after them.
 */
final class ServedTopology implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    private static final String ASKING_CLUSTER = "a";

    ClusterSet set;
    ClustersetZone zone;
    DnsServer server;
    WireClient client;

    static ServedTopology started() throws Exception {
        ServedTopology served = new ServedTopology();
        served.start();
        return served;
    }

    private void start() throws Exception {
        try (InputStream in = ServedTopology.class.getResourceAsStream("/served.yaml")) {
            set = TopologyLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "served.yaml");
        }
        zone = new ClustersetZone(Optional.of(ASKING_CLUSTER), ServiceDiscovery.of(Planner.plan(set), GatewayHealth.ALL_UP));
        server = DnsServer.start(new InetSocketAddress("127.0.0.1", 0), zone, 1);
        client = new WireClient(server.address());
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void close() {
        server.close();
    }
}
