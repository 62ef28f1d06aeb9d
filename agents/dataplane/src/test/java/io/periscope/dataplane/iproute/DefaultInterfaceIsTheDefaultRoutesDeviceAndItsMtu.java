package io.periscope.dataplane.iproute;

import io.periscope.dataplane.command.RecordingCommandRunner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The default interface is read from what {@code ip -j} prints (captured on a Debian machine whose
 * default interface has MTU 1400, and on a namespace without a default route).
 */
class DefaultInterfaceIsTheDefaultRoutesDeviceAndItsMtu {

    private static final String ROUTES = "[{\"dst\":\"default\",\"gateway\":\"192.0.2.1\",\"dev\":\"eth0\",\"flags\":[]}]";
    private static final String LINK = "[{\"ifindex\":4,\"ifname\":\"eth0\",\"flags\":[\"BROADCAST\",\"MULTICAST\",\"UP\",\"LOWER_UP\"],"
            + "\"mtu\":1400,\"qdisc\":\"pfifo_fast\",\"operstate\":\"UP\",\"linkmode\":\"DEFAULT\",\"group\":\"default\",\"txqlen\":1000,"
            + "\"link_type\":\"ether\",\"address\":\"02:fc:00:00:00:01\",\"broadcast\":\"ff:ff:ff:ff:ff:ff\"}]";
    private static final String MULTIPATH = "[{\"dst\":\"default\",\"protocol\":\"static\",\"flags\":[],\"nexthops\":[{\"gateway\":\"10.0.0.1\","
            + "\"dev\":\"ens5\",\"weight\":1,\"flags\":[]},{\"gateway\":\"10.0.1.1\",\"dev\":\"ens6\",\"weight\":1,\"flags\":[]}]}]";

    @Test
    void theDefaultRoutesDeviceAndThatDevicesMtu() {
        RecordingCommandRunner runner = new RecordingCommandRunner();
        runner.answer(DefaultInterface.ROUTES.argv(), ROUTES);
        runner.answer(DefaultInterface.link("eth0").argv(), LINK);

        DefaultInterface found = DefaultInterface.discover(runner);

        assertThat(found).isEqualTo(new DefaultInterface("eth0", 1400));
        assertThat(found.link().device()).isEqualTo("eth0");
        assertThat(found.link().effectiveMtu()).isEqualTo(1400);
    }

    @Test
    void aMultipathDefaultRouteGivesItsFirstNexthopsDevice() {
        assertThat(DefaultInterface.deviceOfDefaultRoute(MULTIPATH)).isEqualTo("ens5");
    }

    @Test
    void noDefaultRouteIsAnErrorThatSaysSo() {
        assertThatThrownBy(() -> DefaultInterface.deviceOfDefaultRoute("[]")).isInstanceOf(DefaultInterface.DiscoveryException.class)
                .hasMessageContaining("no IPv4 default route");
        assertThatThrownBy(() -> DefaultInterface.mtuOf("[{\"ifname\":\"eth0\"}]", "eth0")).hasMessageContaining("no MTU for eth0");
    }
}
