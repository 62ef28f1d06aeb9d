package io.periscope.simulator.routing;

import io.periscope.plan.routing.NexthopGroup;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables read with {@code ip nexthop bucket show} from Linux 6.18 after {@code ip nexthop add id 10
 * group 1/2/3 type resilient buckets 16} and the replacements below, no packet sent (so every bucket
 * idle). {@code KernelChoicesAreTheSimulatorsChoices} (root, lab) compares the same live.
 */
class ResilientBucketsMoveAsTheKernelMovesThem {

    private static List<NexthopGroup.Member> members(int... ids) {
        return java.util.Arrays.stream(ids).mapToObj(id -> new NexthopGroup.Member(id, 1)).toList();
    }

    @Test
    void aNewGroupFillsItsBucketsFromTheLastMemberBackwards() {
        assertThat(ResilientBuckets.created(members(1, 2, 3), 16).members())
                .containsExactly(3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1);
        assertThat(ResilientBuckets.created(members(3, 1), 8).members()).containsExactly(1, 1, 1, 1, 3, 3, 3, 3);
        assertThat(ResilientBuckets.created(members(1, 2), 4).members()).containsExactly(2, 2, 1, 1);
    }

    @Test
    void withdrawingAMemberMovesOnlyItsBuckets() {
        ResilientBuckets three = ResilientBuckets.created(members(1, 2, 3), 16);

        ResilientBuckets two = three.replaced(members(1, 3), Set.of());

        assertThat(two.members()).containsExactly(3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1);
    }

    @Test
    void aMemberAddedBackTakesIdleBucketsOnlyAndBusyOnesStay() {
        ResilientBuckets two = ResilientBuckets.created(members(1, 2, 3), 16).replaced(members(1, 3), Set.of());

        assertThat(two.replaced(members(1, 2, 3), Set.of()).members())
                .containsExactly(2, 2, 2, 3, 3, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1);
        assertThat(two.replaced(members(1, 2, 3), Set.of(0, 1, 2, 8, 9, 10)).members())
                .containsExactly(3, 3, 3, 2, 2, 2, 3, 3, 1, 1, 1, 2, 2, 2, 1, 1);
    }
}
