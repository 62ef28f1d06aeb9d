package io.periscope.lab.trace;

import io.periscope.model.net.Ipv4Address;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compares a path real packets took with the simulator's paths of the same flow. The kernel took
 * one branch of every multipath choice, so the observed path is compared with the simulated path
 * that visits the same hosts through the same interfaces; then field by field (addresses and ports
 * on arrival and departure, encapsulation). With no such path, the closest one (longest common
 * run of hops) gives the first difference.
 */
public final class PathComparison {

    private PathComparison() {
    }

    public static PathMatch compare(TracePath observed, List<TracePath> simulated) {
        if (simulated.isEmpty()) {
            return new PathMatch(-1, Optional.of(new HopDifference("path", 0, "", "paths", "none", observed.route())));
        }
        List<Integer> sameHops = new ArrayList<>();
        for (int i = 0; i < simulated.size(); i++) {
            if (positionDifference(simulated.get(i), observed).isEmpty()) {
                sameHops.add(i);
            }
        }
        if (!sameHops.isEmpty()) {
            Optional<HopDifference> firstFound = Optional.empty();
            for (int index : sameHops) {
                Optional<HopDifference> difference = fieldDifference(simulated.get(index), observed);
                if (difference.isEmpty()) {
                    return new PathMatch(index, Optional.empty());
                }
                if (firstFound.isEmpty()) {
                    firstFound = difference;
                }
            }
            return new PathMatch(sameHops.getFirst(), firstFound);
        }
        int closest = 0;
        int longest = -1;
        for (int i = 0; i < simulated.size(); i++) {
            int common = commonHops(simulated.get(i), observed);
            if (common > longest) {
                longest = common;
                closest = i;
            }
        }
        return new PathMatch(closest, positionDifference(simulated.get(closest), observed));
    }

    /** Where the two paths stop visiting the same hosts through the same interfaces. */
    static Optional<HopDifference> positionDifference(TracePath simulated, TracePath observed) {
        Optional<HopDifference> forward = positionDifference("forward", simulated.forward(), observed.forward());
        return forward.isPresent() ? forward : positionDifference("reply", simulated.reply(), observed.reply());
    }

    private static Optional<HopDifference> positionDifference(String direction, List<TraceHop> simulated, List<TraceHop> observed) {
        int n = Math.min(simulated.size(), observed.size());
        for (int i = 0; i < n; i++) {
            TraceHop s = simulated.get(i);
            TraceHop o = observed.get(i);
            Optional<HopDifference> difference = first(
                    differ(direction, i, o.node(), "node", s.node(), o.node()),
                    differ(direction, i, o.node(), "in", s.in().orElse("(none)"), o.in().orElse("(none)")),
                    differ(direction, i, o.node(), "out", s.out().orElse("(none)"), o.out().orElse("(none)")));
            if (difference.isPresent()) {
                return difference;
            }
        }
        if (simulated.size() != observed.size()) {
            String node = observed.size() > n ? observed.get(n).node() : simulated.get(n).node();
            return Optional.of(new HopDifference(direction, n + 1, node, "hop",
                    simulated.size() > n ? simulated.get(n).position() : "(path ends)",
                    observed.size() > n ? observed.get(n).position() : "(path ends)"));
        }
        return Optional.empty();
    }

    private static int commonHops(TracePath simulated, TracePath observed) {
        int common = commonHops(simulated.forward(), observed.forward());
        if (common == simulated.forward().size() && common == observed.forward().size()) {
            common += commonHops(simulated.reply(), observed.reply());
        }
        return common;
    }

    private static int commonHops(List<TraceHop> simulated, List<TraceHop> observed) {
        int n = Math.min(simulated.size(), observed.size());
        for (int i = 0; i < n; i++) {
            if (!simulated.get(i).position().equals(observed.get(i).position())) {
                return i;
            }
        }
        return n;
    }

    /** Paths through the same hops: the disposition, then each hop's packets and encapsulation. */
    static Optional<HopDifference> fieldDifference(TracePath simulated, TracePath observed) {
        if (!simulated.disposition().equals(observed.disposition())) {
            return Optional.of(new HopDifference("path", 0, "", "disposition", simulated.disposition(), observed.disposition()));
        }
        Optional<HopDifference> forward = fieldDifference("forward", simulated.forward(), observed.forward());
        return forward.isPresent() ? forward : fieldDifference("reply", simulated.reply(), observed.reply());
    }

    private static Optional<HopDifference> fieldDifference(String direction, List<TraceHop> simulated, List<TraceHop> observed) {
        for (int i = 0; i < simulated.size(); i++) {
            TraceHop s = simulated.get(i);
            TraceHop o = observed.get(i);
            // A node's own socket leaves its source address to routing; the simulator then shows the
            // generated packet with 0.0.0.0, and the address chosen appears on departure.
            boolean sourceChosenByRouting = i == 0 && s.arrive().src().equals(Ipv4Address.ANY);
            Optional<HopDifference> difference = first(
                    packet(direction, i, o.node(), "arrive", s.arrive(), o.arrive(), sourceChosenByRouting),
                    optionalPacket(direction, i, o.node(), s.depart(), o.depart()),
                    encap(direction, i, o.node(), s.encap(), o.encap()));
            if (difference.isPresent()) {
                return difference;
            }
        }
        return Optional.empty();
    }

    private static Optional<HopDifference> optionalPacket(String direction, int i, String node, Optional<TracePacket> simulated,
                                                          Optional<TracePacket> observed) {
        if (simulated.isPresent() && observed.isPresent()) {
            return packet(direction, i, node, "depart", simulated.get(), observed.get(), false);
        }
        return differ(direction, i, node, "depart", simulated.map(TracePacket::endpoints).orElse("(none)"),
                observed.map(TracePacket::endpoints).orElse("(none)"));
    }

    private static Optional<HopDifference> packet(String direction, int i, String node, String which, TracePacket simulated,
                                                  TracePacket observed, boolean skipSource) {
        return first(
                skipSource ? Optional.empty() : differ(direction, i, node, which + ".src", simulated.src().toString(), observed.src().toString()),
                differ(direction, i, node, which + ".dst", simulated.dst().toString(), observed.dst().toString()),
                differ(direction, i, node, which + ".sport", String.valueOf(simulated.sport()), String.valueOf(observed.sport())),
                differ(direction, i, node, which + ".dport", String.valueOf(simulated.dport()), String.valueOf(observed.dport())),
                differ(direction, i, node, which + ".proto", simulated.proto().lowerName(), observed.proto().lowerName()));
    }

    private static Optional<HopDifference> encap(String direction, int i, String node, Optional<TraceEncap> simulated,
                                                 Optional<TraceEncap> observed) {
        if (simulated.isEmpty() || observed.isEmpty()) {
            return differ(direction, i, node, "encap", simulated.map(TraceEncap::toString).orElse("(none)"),
                    observed.map(TraceEncap::toString).orElse("(none)"));
        }
        TraceEncap s = simulated.get();
        TraceEncap o = observed.get();
        return first(
                differ(direction, i, node, "encap.encapsulation", s.encapsulation(), o.encapsulation()),
                differ(direction, i, node, "encap.encrypted", String.valueOf(s.encrypted()), String.valueOf(o.encrypted())),
                differ(direction, i, node, "encap.outerSrc", s.outerSrc().toString(), o.outerSrc().toString()),
                differ(direction, i, node, "encap.outerDst", s.outerDst().toString(), o.outerDst().toString()),
                differ(direction, i, node, "encap.vni", String.valueOf(s.vni()), String.valueOf(o.vni())),
                differ(direction, i, node, "encap.port", String.valueOf(s.port()), String.valueOf(o.port())),
                differ(direction, i, node, "encap.underlay", s.underlay(), o.underlay()));
    }

    private static Optional<HopDifference> differ(String direction, int i, String node, String field, String simulated, String observed) {
        return simulated.equals(observed) ? Optional.empty()
                : Optional.of(new HopDifference(direction, i + 1, node, field, simulated, observed));
    }

    @SafeVarargs
    private static Optional<HopDifference> first(Optional<HopDifference>... candidates) {
        for (Optional<HopDifference> candidate : candidates) {
            if (candidate.isPresent()) {
                return candidate;
            }
        }
        return Optional.empty();
    }
}
