package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The memo's arithmetic where a suffix forks: {@code CountedPathsEqualWalkedPaths} compares counts with
 * walks on generated sets, but there every reply suffix the memo reuses is one path (gateway, node,
 * sender), so a memo that miscounted only a forked suffix would pass it. Here a suffix ends in three
 * paths, two delivered, and a branch reaching its state again must add exactly those.
 */
class ASuffixCountedOnceAddsEveryPathItEndedInWhereReused {

    private static SuffixMemo.Key key(int host, Packet packet) {
        return new SuffixMemo.Key(host, "vxlan-tunnel", packet, null, 0, TcpSegment.SYN_ACK, false, null, 0, packet.answer(), 3, 1, false,
                List.of());
    }

    @Test
    void aForkedSuffixAddsEachOfItsPathsAndHowTheyEnded() {
        Packet reply = Packet.of(Ipv4Address.parse("10.1.0.5"), Ipv4Address.parse("10.0.0.7"), 80, 40000, Protocol.TCP);
        SuffixMemo memo = new SuffixMemo();
        memo.counted(true);    // a path of the flow before the suffix

        SuffixMemo.Key forked = key(4, reply);
        assertThat(memo.reuse(forked, ConntrackState.EMPTY)).isFalse();
        long[] before = memo.open(4);
        memo.counted(true);
        memo.counted(false);
        memo.counted(true);
        memo.close(forked, ConntrackState.EMPTY, before);
        assertThat(memo.paths()).isEqualTo(4);
        assertThat(memo.delivered()).isEqualTo(3);

        assertThat(memo.reuse(key(4, reply), ConntrackState.EMPTY)).isTrue();
        assertThat(memo.paths()).isEqualTo(7);
        assertThat(memo.delivered()).isEqualTo(5);
        assertThat(memo.reused()).isEqualTo(1);

        // Another host, or another packet, is another state: nothing to reuse.
        assertThat(memo.reuse(key(5, reply), ConntrackState.EMPTY)).isFalse();
        assertThat(memo.reuse(key(4, reply.withSource(Ipv4Address.parse("10.1.0.6"), 80)), ConntrackState.EMPTY)).isFalse();
        assertThat(memo.paths()).isEqualTo(7);
    }
}
