package io.periscope.simulator.reachability;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Values filed under IPv4 prefixes, found by an address: every value of every prefix that holds it.
 * Filed by prefix length and then by network, so an address costs one look-up per length in use. A
 * plan's ipsets hold thousands of networks of a few lengths (every node's Globalnet and remote-CIDR
 * sets alike), and the pod classes ask this of each of ten thousand pods: a scan of every network
 * for each was a fifth of the time {@link PodTreatment} took.
 */
final class PrefixIndex<T> {

    private final Map<Integer, Map<Integer, List<T>>> byLength = new HashMap<>();

    void add(Ipv4Prefix prefix, T value) {
        byLength.computeIfAbsent(prefix.length(), k -> new HashMap<>())
                .computeIfAbsent(prefix.network().bits(), k -> new ArrayList<>(1)).add(value);
    }

    /** Adds to {@code into} the values of every prefix holding {@code address}, each as often as it was filed. */
    void holding(Ipv4Address address, List<? super T> into) {
        byLength.forEach((length, byNetwork) -> {
            List<T> values = byNetwork.get(Ipv4Prefix.containing(address, length).network().bits());
            if (values != null) {
                into.addAll(values);
            }
        });
    }
}
