package io.periscope.simulator.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TraceJson;
import io.periscope.simulator.trace.TunnelGateways;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a gateway failure does to the TCP connections of a flow that were established through the
 * failed node: their next segment, an ACK, goes through the survivors, whose conntrack has never seen
 * it ({@link io.periscope.simulator.Simulator#traceMidStream}). A host new to the connection either
 * picks it up as a new connection ({@code nf_conntrack_tcp_loose=1}, the kernel's default) and its NAT
 * rules translate it anew, or finds it INVALID ({@code nf_conntrack_tcp_loose=0}) and lets it go on
 * untranslated. The connection survives only when the server gets the segment addressed as the
 * connection's own packets were: a segment translated to other addresses belongs to no socket there,
 * and the server answers it with a reset. Shown by {@code trace --fail}, in text and JSON.
 *
 * @param flow        the flow's name
 * @param established the connection's packets as the server received them before the failure, one per
 *                    delivered path through a failed node
 * @param paths       every path of the next segment after the failure
 */
public record MovedConnections(String flow, List<Packet> established, List<MovedPath> paths) {

    public MovedConnections {
        established = List.copyOf(established);
        paths = List.copyOf(paths);
    }

    /** What becomes of a moved connection on one path. */
    public enum Fate {
        /** The segment reaches the server as the connection's own, and the server's answer comes back as the client expects. */
        SURVIVES,
        /** The segment reaches the server from other addresses or ports: no socket has them, the server answers with a reset. */
        RESET,
        /** The segment or its answer is lost on the way; every retransmission takes the same path, so the connection stalls. */
        STALLS
    }

    /**
     * A host of the moved path to which the segment is new: a host no established path crossed (the
     * gateway that took over), or one that saw the connection's packets otherwise than this segment
     * arrives (translated by another gateway before), whose entry then does not match it.
     *
     * @param direction {@code forward} (client to server) or {@code reply}
     * @param state     the conntrack state of the TCP segment there: NEW where it was picked up
     *                  mid-stream, INVALID where it was not
     * @param sawBefore how the host saw the connection's packets before the failure, when it did
     * @param nat       the translations the host applied to it
     */
    public record NewHost(String node, String direction, ConntrackLookup.State state, Optional<Packet> sawBefore, List<Step> nat) {

        public NewHost {
            nat = List.copyOf(nat);
        }

        boolean snatsAnew() {
            return nat.stream().anyMatch(step -> step instanceof Step.Snat);
        }

        String describe() {
            String conntrack = switch (state) {
                case NEW -> "no entry for it, picked up mid-stream as a new connection (nf_conntrack_tcp_loose=1)";
                case INVALID -> "no entry for it, and nf_conntrack_tcp_loose=0 picks none up: INVALID, not NATed";
                case ESTABLISHED -> "an entry this segment made on the way";
                case UNTRACKED -> "untracked";
            };
            String translated = nat.stream().map(MovedConnections::translation).collect(Collectors.joining(", "));
            return node + " (" + direction + "): " + sawBefore.map(p -> "saw the connection as " + tuple(p) + " before, ").orElse("") + conntrack + (translated.isEmpty() ? "" : "; " + translated);
        }
    }

    /**
     * @param gateways the tunnel gateways the segment crosses
     * @param atServer the segment as the server received it, empty when it never got there
     */
    public record MovedPath(Disposition disposition, Optional<String> reason, Set<String> gateways, List<NewHost> newHosts,
                            Optional<Packet> atServer, Fate fate) {

        public MovedPath {
            gateways = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(gateways));
            newHosts = List.copyOf(newHosts);
        }
    }

    /**
     * The moved connections of one TCP flow, empty when the flow is no TCP flow or none of its
     * delivered paths crossed a failed node (its connections do not move).
     *
     * @param healthy   the flow traced with every node up
     * @param midStream its next segment traced with the nodes failed ({@code Simulator.traceMidStream})
     * @param failed    the failed nodes as {@code cluster/node}
     */
    public static Optional<MovedConnections> of(FlowTrace healthy, Protocol protocol, List<PathTrace> midStream, Collection<String> failed) {
        if (protocol != Protocol.TCP) {
            return Optional.empty();
        }
        List<PathTrace> throughFailed = healthy.paths().stream()
                .filter(p -> p.disposition() == Disposition.DELIVERED && !p.forward().isEmpty())
                .filter(p -> hosts(p).stream().anyMatch(failed::contains))
                .toList();
        if (throughFailed.isEmpty()) {
            return Optional.empty();
        }
        List<Packet> established = new ArrayList<>();
        Map<String, List<Packet>> forwardSeen = new HashMap<>();
        Map<String, List<Packet>> replySeen = new HashMap<>();
        for (PathTrace path : throughFailed) {
            Packet atServer = path.forward().getLast().arrive();
            if (established.stream().noneMatch(atServer::sameFlow)) {
                established.add(atServer);
            }
            // What each host saw of the connections whose request (or answer) the failed node carried:
            // the gateway that takes their requests over never saw them, even where other connections
            // of the flow, whose answers alone the failed node carried, went out through it.
            if (path.forward().stream().anyMatch(h -> failed.contains(h.node().toString()))) {
                path.forward().forEach(h -> forwardSeen.computeIfAbsent(h.node().toString(), n -> new ArrayList<>()).add(h.arrive()));
            }
            if (path.reply().stream().anyMatch(h -> failed.contains(h.node().toString()))) {
                path.reply().forEach(h -> replySeen.computeIfAbsent(h.node().toString(), n -> new ArrayList<>()).add(h.arrive()));
            }
        }
        List<MovedPath> moved = new ArrayList<>();
        for (PathTrace path : midStream) {
            List<NewHost> forward = newHosts(path.forward(), "forward", forwardSeen);
            List<NewHost> newHosts = new ArrayList<>(forward);
            newHosts.addAll(newHosts(path.reply(), "reply", replySeen));
            Optional<Packet> atServer = reachesTheServer(path) ? Optional.of(path.forward().getLast().arrive()) : Optional.empty();
            // A host that translates the segment by a new entry must give it a tuple no other entry
            // holds, and the connection's own entry still holds the one it had: the segment reaches
            // the server otherwise than the connection's packets (FailoverPrediction's rule, which the
            // lab's failover measurement checks).
            boolean freshSnat = forward.stream().anyMatch(NewHost::snatsAnew);
            Fate fate = atServer.isPresent() && (freshSnat || established.stream().noneMatch(atServer.get()::sameFlow)) ? Fate.RESET
                    : path.disposition() == Disposition.DELIVERED ? Fate.SURVIVES : Fate.STALLS;
            moved.add(new MovedPath(path.disposition(), path.reason(), TunnelGateways.of(List.of(delivered(path))), newHosts, atServer, fate));
        }
        return Optional.of(new MovedConnections(healthy.name(), established, moved));
    }

    /** The path as if delivered, so that {@link TunnelGateways} names the gateways of a path that was not. */
    private static PathTrace delivered(PathTrace path) {
        return new PathTrace(Disposition.DELIVERED, path.forward(), path.reply(), Optional.empty(), path.choices());
    }

    private static boolean reachesTheServer(PathTrace path) {
        return !path.forward().isEmpty() && path.forward().getLast().steps().stream().anyMatch(s -> s instanceof Step.Deliver);
    }

    private static Set<String> hosts(PathTrace path) {
        Set<String> hosts = new LinkedHashSet<>();
        path.forward().forEach(h -> hosts.add(h.node().toString()));
        path.reply().forEach(h -> hosts.add(h.node().toString()));
        return hosts;
    }

    /**
     * The hops to whose host the segment is new: the host never saw the connection, or saw its packets
     * arrive otherwise (its entry does not match this segment). A hop whose segment matched an entry
     * this very segment made (an ACK's answer on a host the ACK created an entry on) is left out.
     */
    private static List<NewHost> newHosts(List<Hop> hops, String direction, Map<String, List<Packet>> seen) {
        List<NewHost> hosts = new ArrayList<>();
        for (Hop hop : hops) {
            List<Packet> before = seen.getOrDefault(hop.node().toString(), List.of());
            if (before.stream().anyMatch(hop.arrive()::sameFlow)) {
                continue;
            }
            Optional<ConntrackLookup> segment = hop.conntrack().stream().filter(c -> c.packet().protocol() == Protocol.TCP).findFirst();
            if (segment.isEmpty() || segment.get().state() == ConntrackLookup.State.ESTABLISHED) {
                continue;
            }
            List<Step> nat = hop.steps().stream().filter(s -> s instanceof Step.Snat || s instanceof Step.Dnat).toList();
            hosts.add(new NewHost(hop.node().toString(), direction, segment.get().state(), before.stream().findFirst(), nat));
        }
        return hosts;
    }

    private static String tuple(Packet p) {
        return p.src() + ":" + p.sport() + " -> " + p.dst() + ":" + p.dport();
    }

    private static String translation(Step step) {
        Packet p = step.packet();
        return switch (step) {
            case Step.Snat snat -> "snat to " + p.src() + ":" + p.sport() + snat.rule().map(r -> " (" + r + ")").orElse("");
            case Step.Dnat dnat -> "dnat to " + p.dst() + ":" + p.dport() + dnat.rule().map(r -> " (" + r + ")").orElse("");
            default -> step.kind();
        };
    }

    /** Every path's fate, in order. */
    public List<Fate> fates() {
        return paths.stream().map(MovedPath::fate).toList();
    }

    public String toText() {
        StringBuilder text = new StringBuilder("  ").append(flow).append(": connections established through the failed node, their next segment"
                + " (an ACK) after the move:\n");
        for (int i = 0; i < paths.size(); i++) {
            MovedPath path = paths.get(i);
            text.append("    path ").append(i + 1).append(" of ").append(paths.size())
                    .append(path.gateways().isEmpty() ? "" : " via " + String.join(", ", path.gateways())).append(": ")
                    .append(switch (path.fate()) {
                        case SURVIVES -> "the connection survives";
                        case RESET -> established.stream().anyMatch(path.atServer().orElseThrow()::sameFlow)
                                ? "reset: " + path.newHosts().stream().filter(h -> h.direction().equals("forward") && h.snatsAnew())
                                .map(NewHost::node).findFirst().orElse("a host") + " SNATs the segment anew, and conntrack gives a new"
                                + " entry another tuple than the connection's entry holds, so the server gets it from another address"
                                + " or port than the connection's"
                                : "reset: the server gets it as " + tuple(path.atServer().orElseThrow()) + ", no socket of it has that (the"
                                + " connection's packets came as " + established.stream().map(MovedConnections::tuple)
                                .collect(Collectors.joining(" or ")) + ")";
                        case STALLS -> "stalls: " + path.reason().orElse(path.disposition().yamlName());
                    }).append('\n');
            for (NewHost host : path.newHosts()) {
                text.append("      ").append(host.describe()).append('\n');
            }
        }
        return text.toString();
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The {@code movedConnections} field of the flow in {@code trace --json --fail} (trace.schema.json). */
    public ObjectNode toJson() {
        ObjectNode node = MAPPER.createObjectNode();
        ArrayNode establishedNode = node.putArray("established");
        established.forEach(p -> establishedNode.add(TraceJson.packet(p)));
        ArrayNode pathsNode = node.putArray("paths");
        for (MovedPath path : paths) {
            ObjectNode p = pathsNode.addObject();
            p.put("fate", path.fate().name().toLowerCase(java.util.Locale.ROOT));
            p.put("disposition", path.disposition().yamlName());
            path.reason().ifPresent(r -> p.put("reason", r));
            ArrayNode gateways = p.putArray("gateways");
            path.gateways().forEach(gateways::add);
            path.atServer().ifPresent(a -> p.set("atServer", TraceJson.packet(a)));
            ArrayNode hosts = p.putArray("newHosts");
            for (NewHost host : path.newHosts()) {
                ObjectNode h = hosts.addObject();
                h.put("node", host.node());
                h.put("direction", host.direction());
                h.put("conntrack", host.state().name().toLowerCase(java.util.Locale.ROOT));
                host.sawBefore().ifPresent(seen -> h.set("sawBefore", TraceJson.packet(seen)));
                ArrayNode nat = h.putArray("nat");
                host.nat().forEach(step -> nat.add(TraceJson.step(step)));
            }
        }
        return node;
    }
}
