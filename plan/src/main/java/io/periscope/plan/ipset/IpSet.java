package io.periscope.plan.ipset;

import io.periscope.model.net.Ipv4Prefix;

import java.util.List;

/**
 * An ipset that Periscope owns, e.g. the {@code hash:net} set of the pods a namespace or
 * pod-selector GlobalEgressIP selects. Members of a {@code hash:ip} set are /32 prefixes.
 */
public record IpSet(String name, IpSetType type, List<Ipv4Prefix> members) {

    /** ipset names are limited to 31 characters by the kernel. */
    public static final int MAX_NAME = 31;

    public IpSet {
        if (name.length() > MAX_NAME) {
            throw new IllegalArgumentException("ipset name '" + name + "' is longer than " + MAX_NAME + " characters");
        }
        members = List.copyOf(members);
    }

    public boolean contains(io.periscope.model.net.Ipv4Address address) {
        for (Ipv4Prefix member : members) {
            if (member.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
