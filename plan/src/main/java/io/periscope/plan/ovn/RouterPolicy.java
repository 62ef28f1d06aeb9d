package io.periscope.plan.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A logical router policy ({@code ovn-nbctl lr-policy-add}): a match on the source and destination
 * prefixes, and what happens to a packet that matches. Policies run in descending priority; the
 * first match decides.
 */
public record RouterPolicy(int priority, Optional<Ipv4Prefix> source, Optional<Ipv4Prefix> destination, Action action,
                           Optional<Ipv4Address> nexthop) {

    public enum Action {
        REROUTE, ALLOW, DROP;

        public String ovnName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public RouterPolicy {
        if (action == Action.REROUTE && nexthop.isEmpty()) {
            throw new IllegalArgumentException("a reroute policy needs a next hop");
        }
    }

    public static RouterPolicy reroute(int priority, Ipv4Prefix destination, Ipv4Address nexthop) {
        return new RouterPolicy(priority, Optional.empty(), Optional.of(destination), Action.REROUTE, Optional.of(nexthop));
    }

    public boolean matches(Ipv4Address src, Ipv4Address dst) {
        return source.map(s -> s.contains(src)).orElse(true) && destination.map(d -> d.contains(dst)).orElse(true);
    }

    /** The match in OVN's expression language: {@code ip4.dst == 242.1.0.0/16}, {@code ip4} when it matches everything. */
    public String match() {
        List<String> terms = new ArrayList<>();
        source.ifPresent(s -> terms.add("ip4.src == " + s));
        destination.ifPresent(d -> terms.add("ip4.dst == " + d));
        return terms.isEmpty() ? "ip4" : String.join(" && ", terms);
    }

    /** As {@code ovn-nbctl lr-policy-list} prints it: priority, match, action and next hop. */
    public String text() {
        return priority + " " + match() + " " + action.ovnName() + nexthop.map(n -> " " + n).orElse("");
    }
}
