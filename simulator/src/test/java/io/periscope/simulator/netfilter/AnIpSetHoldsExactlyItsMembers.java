package io.periscope.simulator.netfilter;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class AnIpSetHoldsExactlyItsMembers {

    @Test
    void everyAddressOfALargeSetIsInItAndTheirNeighboursAreNot() {
        // Pod addresses: one subnet, consecutive low bits, the case a hash of the address must spread.
        List<Ipv4Prefix> members = new ArrayList<>();
        for (int i = 0; i < 1000; i += 2) {
            members.add(Ipv4Prefix.host(Ipv4Address.of(10, 1, i / 256, i % 256)));
        }
        CompiledIpSet set = new CompiledIpSet(new IpSet("pods", IpSetType.HASH_IP, members));

        for (int i = 0; i < 1000; i++) {
            Ipv4Address address = Ipv4Address.of(10, 1, i / 256, i % 256);
            assertThat(set.contains(address)).as(address.toString()).isEqualTo(i % 2 == 0);
        }
    }

    @Test
    void randomAddressesAreInTheSetExactlyWhenTheyWereAdded() {
        Random random = new Random(31);
        List<Ipv4Prefix> members = new ArrayList<>();
        List<Ipv4Address> others = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Ipv4Address address = new Ipv4Address(random.nextInt());
            if (i % 3 == 0) {
                others.add(address);
            } else {
                members.add(Ipv4Prefix.host(address));
            }
        }
        CompiledIpSet set = new CompiledIpSet(new IpSet("random", IpSetType.HASH_IP, members));

        members.forEach(m -> assertThat(set.contains(m.network())).as(m.toString()).isTrue());
        others.stream().filter(o -> !members.contains(Ipv4Prefix.host(o)))
                .forEach(o -> assertThat(set.contains(o)).as(o.toString()).isFalse());
    }

    @Test
    void theAllZeroAddressIsAMemberOnlyWhenAdded() {
        Ipv4Address zero = Ipv4Address.ANY;
        CompiledIpSet without = new CompiledIpSet(new IpSet("without", IpSetType.HASH_IP, List.of(Ipv4Prefix.parse("10.0.0.1/32"))));
        CompiledIpSet with = new CompiledIpSet(new IpSet("with", IpSetType.HASH_IP,
                List.of(Ipv4Prefix.parse("10.0.0.1/32"), Ipv4Prefix.host(zero))));

        assertThat(without.contains(zero)).isFalse();
        assertThat(with.contains(zero)).isTrue();
        assertThat(with.contains(Ipv4Address.parse("10.0.0.1"))).isTrue();
    }

    @Test
    void networksHoldEveryAddressInThemAndAnEmptySetHoldsNothing() {
        CompiledIpSet set = new CompiledIpSet(new IpSet("nets", IpSetType.HASH_NET,
                List.of(Ipv4Prefix.parse("242.254.1.0/24"), Ipv4Prefix.parse("10.9.9.9/32"))));
        CompiledIpSet empty = new CompiledIpSet(new IpSet("empty", IpSetType.HASH_NET, List.of()));

        assertThat(set.contains(Ipv4Address.parse("242.254.1.77"))).isTrue();
        assertThat(set.contains(Ipv4Address.parse("10.9.9.9"))).isTrue();
        assertThat(set.contains(Ipv4Address.parse("242.254.2.1"))).isFalse();
        assertThat(empty.contains(Ipv4Address.parse("10.9.9.9"))).isFalse();
    }
}
