package io.periscope.plan.routing;

import io.periscope.model.net.Ipv4Prefix;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * An {@code ip rule}: packets that match look up {@code table}; a lookup that finds no route falls
 * through to the next rule, which is how table 100 only catches remote subnets.
 */
public record PolicyRule(int priority, Optional<Ipv4Prefix> from, Optional<Ipv4Prefix> to, OptionalInt fwmark, Optional<String> inInterface, int table) {

    public static PolicyRule lookup(int priority, int table) {
        return new PolicyRule(priority, Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.empty(), table);
    }
}
