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
    private static final String WIREGUARD_DROP_ON_RECEIVE = "wireguard-drop-on-receive.yaml";

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

    /**
     * A headless service's pod on the second of two active gateways (Globalnet, WireGuard): its
     * connection to the other cluster leaves by that gateway with the pod's global IP, which the
     * receiving device allows only from the first gateway's peer, so it drops the packet on receive.
     */
    public static ClusterSet wireGuardDropOnReceive() {
        return resource(WIREGUARD_DROP_ON_RECEIVE);
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
