package io.periscope.dataplane.iptables;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a chain's rules as the kernel holds them do what the plan's do, where the plan's order
 * cannot be predicted. Upstream's route agent appends the ACCEPTs of nat SUBMARINER-POSTROUTING
 * remote Endpoint by remote Endpoint, as their events arrive ({@code RemoteEndpointCreated} in
 * {@code pkg/routeagent_driver/handlers/kubeproxy/endpoint_handler.go}, {@code AppendUnique} in
 * {@code packetfilter_iface.go}), so their order is the history of the cluster set, not its file.
 *
 * <p>A run of consecutive rules with the same target whose matches are only source and destination
 * prefixes, each pair of them apart on one of the two (their prefixes do not overlap), is compared as
 * a set: no packet matches two of them, so whatever their order a packet is matched by the same rule
 * or by none, meets the same target and is counted by the same rule. Everywhere else the comparison
 * is by position, so a permutation that could change which rule a packet matches is a difference.
 */
final class RuleOrderEquivalence {

    private RuleOrderEquivalence() {
    }

    /** Whether {@code current} is {@code wanted}, or {@code wanted} with its interchangeable runs permuted. */
    static boolean sameEffect(List<Rule> current, List<Rule> wanted) {
        if (current.equals(wanted)) {
            return true;
        }
        if (current.size() != wanted.size()) {
            return false;
        }
        int start = 0;
        while (start < wanted.size()) {
            int end = runEnd(wanted, start);
            if (end - start == 1) {
                if (!current.get(start).equals(wanted.get(start))) {
                    return false;
                }
            } else {
                Set<Rule> found = new HashSet<>(current.subList(start, end));
                if (found.size() != end - start || !found.equals(new HashSet<>(wanted.subList(start, end)))) {
                    return false;
                }
            }
            start = end;
        }
        return true;
    }

    /**
     * Where the run of interchangeable rules that starts at {@code start} ends: it grows while the
     * next rule has the run's target, only address matches, and is apart from every rule in it.
     */
    private static int runEnd(List<Rule> rules, int start) {
        Rule first = rules.get(start);
        Optional<Addresses> firstAddresses = addresses(first);
        if (firstAddresses.isEmpty()) {
            return start + 1;
        }
        List<Addresses> run = new ArrayList<>(List.of(firstAddresses.get()));
        int end = start + 1;
        while (end < rules.size()) {
            Rule next = rules.get(end);
            Optional<Addresses> nextAddresses = addresses(next);
            if (!next.target().equals(first.target()) || nextAddresses.isEmpty()
                    || !run.stream().allMatch(member -> member.apartFrom(nextAddresses.get()))) {
                break;
            }
            run.add(nextAddresses.get());
            end++;
        }
        return end;
    }

    /** A rule's source and destination, when those are all it matches (never negated); empty otherwise. */
    private static Optional<Addresses> addresses(Rule rule) {
        Optional<Ipv4Prefix> source = Optional.empty();
        Optional<Ipv4Prefix> destination = Optional.empty();
        for (Match match : rule.matches()) {
            if (match instanceof Match.Source s && !s.negated() && source.isEmpty()) {
                source = Optional.of(s.prefix());
            } else if (match instanceof Match.Destination d && !d.negated() && destination.isEmpty()) {
                destination = Optional.of(d.prefix());
            } else {
                return Optional.empty();
            }
        }
        return source.isEmpty() && destination.isEmpty() ? Optional.empty() : Optional.of(new Addresses(source, destination));
    }

    /** A rule's address matches, an empty one standing for any address; never both empty. */
    private record Addresses(Optional<Ipv4Prefix> source, Optional<Ipv4Prefix> destination) {

        /** No packet matches both: their sources, or their destinations, do not overlap. */
        boolean apartFrom(Addresses other) {
            return apart(source, other.source) || apart(destination, other.destination);
        }

        private static boolean apart(Optional<Ipv4Prefix> one, Optional<Ipv4Prefix> other) {
            return one.isPresent() && other.isPresent() && !one.get().overlaps(other.get());
        }
    }
}
