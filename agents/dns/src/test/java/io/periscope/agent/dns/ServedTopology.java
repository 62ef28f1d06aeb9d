package io.periscope.agent.dns;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import io.periscope.plan.dns.GatewayHealth;
import io.periscope.plan.dns.ServiceDiscovery;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** The topology of {@code served.yaml} served by a real server on 127.0.0.1, on an ephemeral port. */
final class ServedTopology implements AutoCloseable {

    final ClusterSet set;
    final ClustersetZone zone;
    final DnsServer server;
    final WireClient client;

    ServedTopology(String askingCluster) throws Exception {
        try (InputStream in = ServedTopology.class.getResourceAsStream("/served.yaml")) {
            set = TopologyLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "served.yaml");
        }
        zone = new ClustersetZone(Optional.of(askingCluster), ServiceDiscovery.of(Planner.plan(set), GatewayHealth.ALL_UP));
        server = DnsServer.start(new InetSocketAddress("127.0.0.1", 0), zone, 1);
        client = new WireClient(server.address());
    }

    @Override
    public void close() {
        server.close();
    }
}
