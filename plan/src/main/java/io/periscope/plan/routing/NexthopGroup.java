package io.periscope.plan.routing;

import java.util.List;

/**
 * A nexthop group ({@code ip nexthop add id N group A,W/B,W [type resilient buckets B idle_timer T]}).
 * A resilient group keeps flows on their nexthop when another member goes away (seed 004, option 3),
 * and when a member comes back it hands it only buckets that have been idle for
 * {@code idleTimerSeconds}: a connection that sent within that time keeps its nexthop.
 *
 * @param idleTimerSeconds a resilient group's idle timer; 0 for a plain group
 */
public record NexthopGroup(int id, List<Member> members, boolean resilient, int buckets, int idleTimerSeconds) {

    /** The kernel's idle timer for a resilient group that names none (net/ipv4/nexthop.c: 120 s). */
    public static final int KERNEL_DEFAULT_IDLE_TIMER = 120;

    public NexthopGroup {
        members = List.copyOf(members);
        if (!resilient && idleTimerSeconds != 0) {
            throw new IllegalArgumentException("nexthop group " + id + ": only a resilient group has an idle timer");
        }
    }

    /** A plain group, or a resilient one with the kernel's default idle timer. */
    public NexthopGroup(int id, List<Member> members, boolean resilient, int buckets) {
        this(id, members, resilient, buckets, resilient ? KERNEL_DEFAULT_IDLE_TIMER : 0);
    }

    public record Member(int nexthopId, int weight) {
    }
}
