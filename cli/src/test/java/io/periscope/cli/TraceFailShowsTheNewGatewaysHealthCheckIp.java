package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code trace --fail}: with Globalnet each gateway has a health-check global IP of its own (upstream
 * keeps it on its Gateway object), so the gateway that takes a single-active cluster's lease publishes
 * a new one, and the failed gateway's stays held. The text says so after the failover report; where
 * no gateway takes over (multiple active gateways) or without Globalnet it says nothing.
 */
class TraceFailShowsTheNewGatewaysHealthCheckIp {

    private static final String STANDBY = """
            name: standby
            globalnet: {enabled: GLOBALNET, cidr: 242.0.0.0/8, clusterSize: 65536}
            clusters:
              - name: east
                podCIDRs: [10.244.0.0/16]
                serviceCIDRs: [10.96.0.0/16]
                nodes: [{name: east-gw, ip: 192.168.10.2, cniIP: 10.244.0.1, gateway: true}]
              - name: west
                podCIDRs: [10.245.0.0/16]
                serviceCIDRs: [10.97.0.0/16]
                nodes:
                  - {name: west-gw-a, ip: 192.168.20.2, cniIP: 10.245.0.1, gateway: true}
                  - {name: west-gw-b, ip: 192.168.20.3, cniIP: 10.245.1.1, gateway: true}
            """;

    @TempDir
    Path dir;

    private Path file(boolean globalnet) throws Exception {
        return Files.writeString(dir.resolve("standby.yaml"), STANDBY.replace("GLOBALNET", Boolean.toString(globalnet)));
    }

    @Test
    void theGatewayThatTookOverPublishesItsOwnAndThePingToItIsDelivered() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("trace", file(true).toString(), "--from", "east/east-gw", "--to", "242.1.255.253",
                "--protocol", "icmp", "--fail", "west/west-gw-a");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("gateways' health-check addresses (Endpoint healthCheckIP):\n"
                + "  west/west-gw-b took over: 242.1.255.253, its own; west/west-gw-a's 242.1.255.254 stays held by its Gateway object,"
                + " answered by nobody\n");
        assertThat(run.out()).contains("1 path, 1 delivered",
                "dnat nat/SUBMARINER-GN-INGRESS: -d 242.1.255.253/32 -p icmp -j DNAT --to-destination 10.245.1.1");
    }

    @Test
    void withMultipleActiveGatewaysNoGatewayTakesOverAndNothingIsSaid() {
        PeriscopeRun run = PeriscopeRun.of("trace", Path.of("..", "examples", "mag-globalnet.yaml").toString(), "--fail", "cluster1/gw-1");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).doesNotContain("health-check addresses");
    }

    @Test
    void withoutGlobalnetNothingIsSaid() throws Exception {
        PeriscopeRun run = PeriscopeRun.of("trace", file(false).toString(), "--from", "east/east-gw", "--to", "10.245.1.1",
                "--protocol", "icmp", "--fail", "west/west-gw-a");

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).doesNotContain("health-check addresses");
    }
}
