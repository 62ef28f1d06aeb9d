package io.periscope.model.net;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The index answers exactly as comparing the prefix with every stored one would, in either direction of containment. */
class Ipv4PrefixIndexFindsEveryOverlap {

    @Test
    void itAgreesWithAPairwiseComparisonOnRandomPrefixes() {
        Random random = new Random(27);
        Ipv4PrefixIndex<Ipv4Prefix> index = new Ipv4PrefixIndex<>();
        List<Ipv4Prefix> stored = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            // Few distinct high bits, so that overlaps of both kinds are common.
            Ipv4Prefix prefix = Ipv4Prefix.containing(new Ipv4Address(random.nextInt(64) << 26 | random.nextInt()), 4 + random.nextInt(29));
            boolean expected = stored.stream().anyMatch(prefix::overlaps);

            assertThat(index.overlapping(prefix)).as(prefix.toString()).matches(found -> found.isPresent() == expected);
            index.overlapping(prefix).ifPresent(found -> assertThat(found.overlaps(prefix)).isTrue());

            index.add(prefix, prefix);
            stored.add(prefix);
        }
    }

    @Test
    void aSupernetAndASubnetAreBothFound() {
        Ipv4PrefixIndex<String> index = new Ipv4PrefixIndex<>();
        index.add(Ipv4Prefix.parse("10.0.0.0/8"), "wide");
        index.add(Ipv4Prefix.parse("192.168.4.0/24"), "narrow");

        assertThat(index.overlapping(Ipv4Prefix.parse("10.1.0.0/16"))).contains("wide");
        assertThat(index.overlapping(Ipv4Prefix.parse("192.168.0.0/16"))).contains("narrow");
        assertThat(index.overlapping(Ipv4Prefix.parse("192.168.5.0/24"))).isEmpty();
        assertThat(index.overlapping(Ipv4Prefix.parse("11.0.0.0/8"))).isEmpty();
    }
}
