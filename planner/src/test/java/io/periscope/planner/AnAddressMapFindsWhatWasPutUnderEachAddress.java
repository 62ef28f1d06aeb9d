package io.periscope.planner;

import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AnAddressMapFindsWhatWasPutUnderEachAddress {

    @Test
    void aClustersPodAddressesAreFoundAsAHashMapFindsThem() {
        // 10.0.<node>.<n>, as a generated set's pods: the same low byte on every node.
        AddressMap<String> map = new AddressMap<>();
        Map<Ipv4Address, String> expected = new HashMap<>();
        for (int node = 0; node < 100; node++) {
            for (int n = 2; n < 22; n++) {
                Ipv4Address pod = Ipv4Address.of(10, 0, node, n);
                map.put(pod, "pod " + node + "/" + n);
                expected.put(pod, "pod " + node + "/" + n);
            }
        }

        assertThat(map.size()).isEqualTo(2000);
        expected.forEach((address, value) -> assertThat(map.get(address)).isEqualTo(value));
        assertThat(map.get(Ipv4Address.of(10, 0, 100, 2))).isNull();
        assertThat(map.get(Ipv4Address.of(10, 0, 0, 22))).isNull();
    }

    @Test
    void theAddressZeroIsAnAddressLikeAnyOther() {
        AddressMap<String> map = new AddressMap<>();
        assertThat(map.get(Ipv4Address.ANY)).isNull();

        map.put(Ipv4Address.ANY, "any");

        assertThat(map.get(Ipv4Address.ANY)).isEqualTo("any");
        assertThat(map.get(Ipv4Address.of(255, 255, 255, 255))).isNull();
    }

    @Test
    void puttingAnAddressAgainReplacesItsValue() {
        AddressMap<String> map = new AddressMap<>();
        Ipv4Address address = Ipv4Address.of(192, 168, 1, 1);

        map.put(address, "first");
        map.put(address, "second");

        assertThat(map.get(address)).isEqualTo("second");
        assertThat(map.size()).isEqualTo(1);
    }
}
