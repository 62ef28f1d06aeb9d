package io.periscope.dataplane.health;

import io.periscope.dataplane.TestNamespace;

import java.util.ArrayList;
import java.util.List;

/**
 * A node namespace wired by veth to gateway namespaces (10.77.N.1 on the node, 10.77.N.2 on gateway
 * N, device {@code gwN} on the node): enough kernel to probe gateways and route over them.
 */
final class WatchedGateways implements AutoCloseable {

    final TestNamespace node;
    final List<TestNamespace> gateways = new ArrayList<>();

    WatchedGateways(int count) {
        node = TestNamespace.create();
        try {
            for (int n = 1; n <= count; n++) {
                TestNamespace gateway = TestNamespace.create();
                gateways.add(gateway);
                node.run("ip", "link", "add", "gw" + n, "type", "veth", "peer", "name", "uplink", "netns", gateway.name());
                node.run("ip", "addr", "add", "10.77." + n + ".1/24", "dev", "gw" + n);
                node.run("ip", "link", "set", "gw" + n, "up");
                gateway.run("ip", "addr", "add", "10.77." + n + ".2/24", "dev", "uplink");
                gateway.run("ip", "link", "set", "uplink", "up");
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    static String address(int gateway) {
        return "10.77." + gateway + ".2";
    }

    /** Gateway {@code n} drops everything that reaches it, its link still up: a hung node. */
    void blackhole(int n) {
        gateways.get(n - 1).run("iptables", "-I", "INPUT", "-j", "DROP");
    }

    void heal(int n) {
        gateways.get(n - 1).run("iptables", "-D", "INPUT", "-j", "DROP");
    }

    @Override
    public void close() {
        gateways.forEach(TestNamespace::close);
        node.close();
    }
}
