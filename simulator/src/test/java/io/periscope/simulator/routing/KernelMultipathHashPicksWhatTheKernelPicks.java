package io.periscope.simulator.routing;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kernel's answers, from Linux 6.18 in a namespace with {@code fib_multipath_hash_policy=1},
 * {@code fib_multipath_hash_seed=12345} and {@code 100.0.0.0/16} over 16 equal nexthops
 * {@code 10.9.0.2} to {@code 10.9.0.17}: {@code ip route get 100.0.3.9 from SRC iif IN ipproto udp
 * sport SPORT dport 80}. The same comparison runs live against the machine's kernel in the lab's
 * {@code KernelChoicesAreTheSimulatorsChoices} (root), for every policy.
 */
class KernelMultipathHashPicksWhatTheKernelPicks {

    @ParameterizedTest
    @CsvSource({
            "10.8.0.7, 1000, 10.9.0.13",
            "10.8.0.200, 1000, 10.9.0.13",
            "10.8.0.7, 1001, 10.9.0.11",
            "10.8.0.200, 1001, 10.9.0.15",
            "10.8.0.7, 40000, 10.9.0.3",
            "10.8.0.200, 40000, 10.9.0.4",
            "10.8.0.7, 5, 10.9.0.10",
            "10.8.0.200, 5, 10.9.0.2",
            "10.8.0.7, 65000, 10.9.0.6",
            "10.8.0.200, 65000, 10.9.0.2",
    })
    void sixteenNexthopsUnderSeed12345(String source, int sourcePort, String nexthop) {
        List<CompiledNexthop> nexthops = new ArrayList<>();
        for (int i = 2; i <= 17; i++) {
            nexthops.add(new CompiledNexthop(Optional.of(Ipv4Address.parse("10.9.0." + i)), "dummy0", 1, false, i));
        }
        Packet packet = Packet.of(Ipv4Address.parse(source), Ipv4Address.parse("100.0.3.9"), sourcePort, 80, Protocol.UDP);

        int chosen = KernelMultipathHash.select(nexthops, KernelMultipathHash.hash(12345, packet));

        assertThat(nexthops.get(chosen).via()).contains(Ipv4Address.parse(nexthop));
    }

    /**
     * The same namespace and route under each policy ({@code fib_multipath_hash_fields=0x0df7} for
     * policy 3), forwarded UDP to port 80: under policies 0 and 2 the source port changes nothing.
     */
    @ParameterizedTest
    @CsvSource({
            "0, 10.8.0.7, 1000, 10.9.0.7",
            "0, 10.8.0.7, 1001, 10.9.0.7",
            "0, 10.8.0.7, 40000, 10.9.0.7",
            "0, 10.8.0.200, 1000, 10.9.0.3",
            "0, 10.8.0.200, 40000, 10.9.0.3",
            "1, 10.8.0.7, 1001, 10.9.0.11",
            "1, 10.8.0.200, 40000, 10.9.0.4",
            "2, 10.8.0.7, 1000, 10.9.0.7",
            "2, 10.8.0.7, 40000, 10.9.0.7",
            "2, 10.8.0.200, 1001, 10.9.0.3",
            "3, 10.8.0.7, 1000, 10.9.0.6",
            "3, 10.8.0.7, 1001, 10.9.0.9",
            "3, 10.8.0.7, 40000, 10.9.0.15",
            "3, 10.8.0.200, 1000, 10.9.0.13",
            "3, 10.8.0.200, 1001, 10.9.0.11",
            "3, 10.8.0.200, 40000, 10.9.0.3",
    })
    void eachPolicyUnderSeed12345(int policy, String source, int sourcePort, String nexthop) {
        List<CompiledNexthop> nexthops = new ArrayList<>();
        for (int i = 2; i <= 17; i++) {
            nexthops.add(new CompiledNexthop(Optional.of(Ipv4Address.parse("10.9.0." + i)), "d0", 1, false, i));
        }
        MultipathHashSettings settings = new MultipathHashSettings(policy, policy == 3 ? 0x0df7 : MultipathHashSettings.DEFAULT_FIELDS);
        Packet packet = Packet.of(Ipv4Address.parse(source), Ipv4Address.parse("100.0.3.9"), sourcePort, 80, Protocol.UDP);

        int chosen = KernelMultipathHash.select(nexthops, KernelMultipathHash.hash(settings, 12345, packet, true));

        assertThat(nexthops.get(chosen).via()).contains(Ipv4Address.parse(nexthop));
    }

    @ParameterizedTest
    @CsvSource({"10.8.0.7, 100.0.3.9, 1000, 80", "100.0.3.9, 10.8.0.7, 80, 1000"})
    void bothDirectionsOfAFlowHashAlike(String source, String destination, int sourcePort, int destinationPort) {
        int forward = KernelMultipathHash.hash(7, Packet.of(Ipv4Address.parse("10.8.0.7"), Ipv4Address.parse("100.0.3.9"), 1000, 80,
                Protocol.UDP));

        assertThat(KernelMultipathHash.hash(7, Packet.of(Ipv4Address.parse(source), Ipv4Address.parse(destination), sourcePort,
                destinationPort, Protocol.UDP))).isEqualTo(forward);
    }
}
