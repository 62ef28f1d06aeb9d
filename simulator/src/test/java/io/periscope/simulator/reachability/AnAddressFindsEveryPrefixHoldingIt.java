package io.periscope.simulator.reachability;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PrefixIndex} finds, for an address, the values of every prefix that holds it: the same as
 * asking each filed prefix whether it contains the address, whatever the lengths.
 */
class AnAddressFindsEveryPrefixHoldingIt {

    @Test
    void nestedPrefixesOfSeveralLengthsAllAnswer() {
        PrefixIndex<String> index = new PrefixIndex<>();
        index.add(Ipv4Prefix.parse("10.0.0.0/8"), "wide");
        index.add(Ipv4Prefix.parse("10.1.0.0/16"), "cluster");
        index.add(Ipv4Prefix.parse("10.1.2.0/24"), "node");
        index.add(Ipv4Prefix.parse("10.1.2.0/24"), "node again");
        index.add(Ipv4Prefix.parse("10.1.3.0/24"), "other node");
        index.add(Ipv4Prefix.parse("0.0.0.0/0"), "everything");

        assertThat(holding(index, "10.1.2.7")).containsExactlyInAnyOrder("wide", "cluster", "node", "node again", "everything");
        assertThat(holding(index, "10.2.0.1")).containsExactlyInAnyOrder("wide", "everything");
        assertThat(holding(index, "192.168.0.1")).containsExactly("everything");
    }

    @Test
    void anEmptyIndexHoldsNothing() {
        assertThat(holding(new PrefixIndex<>(), "10.0.0.1")).isEmpty();
    }

    @Test
    void givesWhatAScanOfEveryPrefixGives() {
        Random random = new Random(31);
        List<Ipv4Prefix> filed = new ArrayList<>();
        PrefixIndex<Ipv4Prefix> index = new PrefixIndex<>();
        for (int i = 0; i < 400; i++) {
            // Few high bits, so that prefixes nest and addresses fall into them.
            Ipv4Prefix prefix = Ipv4Prefix.containing(new Ipv4Address(0x0A000000 | random.nextInt(1 << 12) << 12), 8 + random.nextInt(24));
            filed.add(prefix);
            index.add(prefix, prefix);
        }
        for (int i = 0; i < 2_000; i++) {
            Ipv4Address address = new Ipv4Address(0x0A000000 | random.nextInt(1 << 24));
            List<Ipv4Prefix> scanned = filed.stream().filter(p -> p.contains(address)).toList();
            List<Ipv4Prefix> found = new ArrayList<>();
            index.holding(address, found);
            assertThat(found).as("%s", address).containsExactlyInAnyOrderElementsOf(scanned);
        }
    }

    private static List<String> holding(PrefixIndex<String> index, String address) {
        List<String> found = new ArrayList<>();
        index.holding(Ipv4Address.parse(address), found);
        return found;
    }
}
