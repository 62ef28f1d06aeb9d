package io.periscope.lab;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Topologies written for the lab's tests, beside the shipped examples ({@link Examples}). */
public final class TestTopologies {

    private static final String CLIENT_SERVER_VXLAN_WIREGUARD = "client-server-vxlan-wireguard.yaml";

    private TestTopologies() {
    }

    /**
     * The seed's two policy examples in one cluster set: a client/server connectivity policy, vxlan
     * between the on-premise server and client, WireGuard between the server and the cloud client,
     * and no cable at all between the two clients.
     */
    public static ClusterSet clientServerOverVxlanAndWireguard() {
        return resource(CLIENT_SERVER_VXLAN_WIREGUARD);
    }

    /** Read from the classpath, not the module's directory: the tests that use it live in two modules. */
    private static ClusterSet resource(String name) {
        try (InputStream in = TestTopologies.class.getResourceAsStream("/topologies/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the test topology " + name + " is not on the classpath");
            }
            return TopologyLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (TopologyException e) {
            throw new IllegalStateException("the test topology " + name + " does not load: " + e.getMessage(), e);
        }
    }
}
