package io.periscope.dataplane.ipset;

import io.periscope.dataplane.Captured;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class IpsetSaveParserReadsCapturedOutput {

    @Test
    void hashNetAndHashIpSetsWithTheirMembersAndNothingElse() {
        List<IpSet> sets = IpsetSaveParser.parse(Captured.read("ipset-save.txt"));

        assertThat(sets).containsExactly(
                new IpSet("SM-GN-PODS-1A2B3C4D", IpSetType.HASH_NET, List.of(Ipv4Prefix.parse("10.0.1.5/32"), Ipv4Prefix.parse("10.0.2.0/24"))),
                new IpSet("SUBMARINER-LOCALIPS", IpSetType.HASH_IP, List.of(Ipv4Prefix.parse("10.0.0.1/32"))));
    }
}
