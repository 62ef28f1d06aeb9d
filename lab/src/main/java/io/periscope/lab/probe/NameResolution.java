package io.periscope.lab.probe;

import io.periscope.lab.trace.HopDifference;
import io.periscope.model.net.Ipv4Address;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a flow written with a DNS name resolved in the lab, next to what the simulator's resolver says
 * the asking cluster's DNS server answers. The lab's answer comes from real DNS inside the source's
 * namespace (glibc in a pod, {@code dig} at the cluster's DNS Service from a node); the simulator's is
 * every answer the server can give, one per turn of its round-robin, so a lab answer agrees when it is
 * one of them (in any order: a client may sort what it gets). The packets then go to the lab's first
 * address, as a client's would, and the simulator traces that same address.
 *
 * @param name      the name asked
 * @param asker     the host that asked ({@code cluster/node} or {@code cluster/namespace/pod})
 * @param observed  the lab's answer, in the order the client got it; empty when it got no address
 * @param simulated the answers the server can give; empty when the name has no address for that cluster (NXDOMAIN)
 * @param sentTo    where the probe's packets went; empty when nothing was sent
 */
public record NameResolution(String name, String asker, List<Ipv4Address> observed, List<List<Ipv4Address>> simulated,
                             Optional<Ipv4Address> sentTo) {

    public NameResolution {
        observed = List.copyOf(observed);
        simulated = simulated.stream().map(List::copyOf).toList();
    }

    public boolean matches() {
        if (observed.isEmpty()) {
            return simulated.isEmpty();
        }
        return simulated.stream().anyMatch(answer -> answer.size() == observed.size() && new HashSet<>(answer).equals(new HashSet<>(observed)));
    }

    /** The answer as the first difference of the flow, field {@code dns.answer}. */
    public Optional<HopDifference> difference() {
        return matches() ? Optional.empty()
                : Optional.of(new HopDifference("dns", 0, asker, "dns.answer", describeSimulated(), describe(observed)));
    }

    public String describeSimulated() {
        return simulated.isEmpty() ? describe(List.of())
                : simulated.stream().map(NameResolution::describe).collect(Collectors.joining(" or "));
    }

    public static String describe(List<Ipv4Address> answer) {
        return answer.isEmpty() ? "no address (NXDOMAIN)" : answer.stream().map(Ipv4Address::toString).collect(Collectors.joining(", "));
    }
}
