package io.periscope.simulator.netfilter;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ipset.IpSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An ipset for fast membership tests: single addresses in a sorted array, networks in a list. */
final class CompiledIpSet {

    private final int[] hosts;
    private final Ipv4Prefix[] networks;

    CompiledIpSet(IpSet set) {
        List<Integer> single = new ArrayList<>();
        List<Ipv4Prefix> nets = new ArrayList<>();
        for (Ipv4Prefix member : set.members()) {
            if (member.length() == 32) {
                single.add(member.network().bits());
            } else {
                nets.add(member);
            }
        }
        hosts = single.stream().mapToInt(Integer::intValue).sorted().toArray();
        networks = nets.toArray(Ipv4Prefix[]::new);
    }

    boolean contains(Ipv4Address address) {
        if (Arrays.binarySearch(hosts, address.bits()) >= 0) {
            return true;
        }
        for (Ipv4Prefix net : networks) {
            if (net.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
