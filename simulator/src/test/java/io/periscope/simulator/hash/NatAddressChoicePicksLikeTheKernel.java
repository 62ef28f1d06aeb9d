package io.periscope.simulator.hash;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Range;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * find_best_ips_proto for IPv4: jhash2 of the source address as an {@code nf_inet_addr} (network byte
 * order read little-endian, three zero words after it) with the destination the same way as initval,
 * scaled onto the range. Expected addresses were worked out by hand from that description; the lab
 * checks them against a real kernel.
 */
class NatAddressChoicePicksLikeTheKernel {

    private static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    private static final Ipv4Range EGRESS = Ipv4Range.parse("242.254.1.1-242.254.1.8");

    @Test
    void theHashCoversTheSourceWithTheDestinationAsInitval() {
        assertThat(NatAddressChoice.hash(ip("10.0.128.4"), ip("242.254.2.254"))).isEqualTo(0x111acfa3);
        assertThat(NatAddressChoice.hash(ip("10.0.128.1"), ip("242.254.2.254"))).isEqualTo(0x36e1374d);
        assertThat(NatAddressChoice.hash(ip("10.1.128.4"), ip("242.254.2.254"))).isEqualTo(0xd97d34d1);
    }

    @Test
    void knownConnectionsGetTheAddressesWorkedOutByHand() {
        assertThat(NatAddressChoice.choose(EGRESS, ip("10.0.128.4"), ip("242.254.2.254"))).isEqualTo(ip("242.254.1.1"));
        assertThat(NatAddressChoice.choose(EGRESS, ip("10.0.128.1"), ip("242.254.2.254"))).isEqualTo(ip("242.254.1.2"));
        assertThat(NatAddressChoice.choose(Ipv4Range.parse("242.254.1.9-242.254.1.16"), ip("10.1.128.4"), ip("242.254.2.254")))
                .isEqualTo(ip("242.254.1.15"));
    }

    @Test
    void reciprocalScaleMapsTheHashOntoTheRangeByItsTopBits() {
        assertThat(NatAddressChoice.reciprocalScale(0, 8)).isZero();
        assertThat(NatAddressChoice.reciprocalScale(0x1fffffff, 8)).isZero();
        assertThat(NatAddressChoice.reciprocalScale(0x20000000, 8)).isEqualTo(1);
        assertThat(NatAddressChoice.reciprocalScale(0xffffffff, 8)).isEqualTo(7);
        assertThat(NatAddressChoice.reciprocalScale(0xffffffff, 0x100000000L)).isEqualTo(0xffffffffL);
    }

    @Test
    void aSingleAddressRangeAlwaysGivesThatAddress() {
        Ipv4Range single = Ipv4Range.single(ip("10.0.0.1"));
        for (int i = 0; i < 100; i++) {
            assertThat(NatAddressChoice.choose(single, Ipv4Address.of(10, 1, 0, i), ip("10.2.0.1"))).isEqualTo(ip("10.0.0.1"));
        }
    }

    @Test
    void theChoiceIsDeterministicAndDependsOnlyOnTheAddresses() {
        Ipv4Address first = NatAddressChoice.choose(EGRESS, ip("10.0.3.7"), ip("242.254.2.10"));
        for (int i = 0; i < 10; i++) {
            assertThat(NatAddressChoice.choose(EGRESS, ip("10.0.3.7"), ip("242.254.2.10"))).isEqualTo(first);
        }
    }

    @Test
    void manySourcesSpreadOverTheWholeRangeAndStayInside() {
        Map<Ipv4Address, Integer> counts = new TreeMap<>();
        for (int i = 0; i < 4000; i++) {
            Ipv4Address source = Ipv4Address.of(10, 0, i >> 8, i & 0xff);
            Ipv4Address chosen = NatAddressChoice.choose(EGRESS, source, ip("242.254.2.254"));
            assertThat(EGRESS.contains(chosen)).isTrue();
            counts.merge(chosen, 1, Integer::sum);
        }
        assertThat(counts).hasSize(8);
        // 500 per address on average; a usable hash keeps every address well within a third of that.
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(350, 650));
    }

    @Test
    void theDestinationChangesTheChoiceForTheSameSource() {
        Map<Ipv4Address, Integer> counts = new TreeMap<>();
        for (int i = 0; i < 800; i++) {
            counts.merge(NatAddressChoice.choose(EGRESS, ip("10.0.128.4"), Ipv4Address.of(242, 254, 2, i % 250).plus(i / 250 * 256L)), 1,
                    Integer::sum);
        }
        assertThat(counts).hasSize(8);
    }
}
