package io.periscope.features.steps;

import io.periscope.plan.routing.NexthopGroup;

/** Seed 004's options 2 and 3: a plain nexthop group, or a resilient one that keeps flows on their nexthop. */
enum NexthopGroupKind {
    PLAIN, RESILIENT;

    void check(NexthopGroup group) {
        if (group.resilient() != (this == RESILIENT)) {
            throw new AssertionError("nexthop group " + group.id() + " is " + (group.resilient() ? "resilient" : "plain")
                    + ", not " + name().toLowerCase(java.util.Locale.ROOT));
        }
    }
}
