package io.periscope.plan.routing;

import java.util.List;

/**
 * A nexthop group ({@code ip nexthop add id N group A,W/B,W [type resilient buckets B]}). A
 * resilient group keeps flows on their nexthop when another member goes away (seed 004, option 3).
 */
public record NexthopGroup(int id, List<Member> members, boolean resilient, int buckets) {

    public NexthopGroup {
        members = List.copyOf(members);
    }

    public record Member(int nexthopId, int weight) {
    }
}
