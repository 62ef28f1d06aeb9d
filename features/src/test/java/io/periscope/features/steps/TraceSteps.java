package io.periscope.features.steps;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.periscope.features.backend.CableSecrecy;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.HostId;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import io.periscope.simulator.trace.TraceText;

import org.opentest4j.TestAbortedException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Flows: sending them, which paths they take, and what happens to the packet at every step. */
public final class TraceSteps {

    private static final Set<String> TRANSLATIONS = Set.of("snat", "dnat", "unsnat", "undnat");

    private final ClusterSetUnderTest world;

    public TraceSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    @When("{word} connects to {word}")
    public void connects(String from, String to) throws FlowResolutionException {
        send(from, to, Protocol.TCP);
    }

    @When("{word} sends UDP to {word}")
    public void sendsUdp(String from, String to) throws FlowResolutionException {
        send(from, to, Protocol.UDP);
    }

    @When("{word} pings {word}")
    public void pings(String from, String to) throws FlowResolutionException {
        send(from, to, Protocol.ICMP);
    }

    private void send(String from, String to, Protocol protocol) throws FlowResolutionException {
        Flow flow = new Flow(from + " -> " + to, FlowEndpointSyntax.parseSource(from), FlowEndpointSyntax.parseTarget(to),
                protocol, Optional.empty());
        world.traced(world.deployment().trace(flow));
    }

    @When("^the paths through (?!.* returning through )(.+) are followed$")
    public void followPathsThrough(String hosts) {
        List<HostId> through = HostNames.parseList(hosts);
        List<PathTrace> paths = world.trace().paths().stream().filter(p -> crosses(p.forward(), through)).toList();
        if (paths.isEmpty()) {
            throw new AssertionError("no path goes through " + through + "; the paths:\n" + render(world.trace().paths()));
        }
        world.follow(paths);
    }

    @When("^the paths through (.+) returning through (.+) are followed$")
    public void followPathsThroughAndBack(String hosts, String replyHosts) {
        List<HostId> through = HostNames.parseList(hosts);
        List<HostId> back = HostNames.parseList(replyHosts);
        List<PathTrace> paths = world.trace().paths().stream()
                .filter(p -> crosses(p.forward(), through) && crosses(p.reply(), back)).toList();
        if (paths.isEmpty()) {
            throw new AssertionError("no path goes through " + through + " and returns through " + back + "; the paths:\n"
                    + render(world.trace().paths()));
        }
        world.follow(paths);
    }

    @Then("every reply returns through {word}")
    public void everyReplyReturnsThrough(String host) {
        HostId id = HostNames.parse(host);
        List<PathTrace> other = world.followed().stream().filter(p -> !crosses(p.reply(), List.of(id))).toList();
        if (!other.isEmpty()) {
            throw new AssertionError(other.size() + " replies do not return through " + host + ":\n" + render(other));
        }
    }

    @Then("{word} translates nothing in the reply")
    public void noTranslationInReply(String host) {
        HostId id = HostNames.parse(host);
        for (PathTrace path : world.followed()) {
            for (PathWalk.Event event : PathWalk.of(path.reply()).events()) {
                if (event.node().equals(id) && TRANSLATIONS.contains(event.kind())) {
                    throw new AssertionError(host + " translates the reply: " + event.describe() + "\n" + render(List.of(path)));
                }
            }
        }
    }

    @Then("the destination is {word}")
    public void destinationIs(String expected) {
        String resolved = world.trace().resolved();
        if (!resolved.equals(expected) && !resolved.startsWith(expected + ":")) {
            throw new AssertionError("the destination resolved to " + resolved + ", not " + expected);
        }
    }

    @Then("there are {int} paths")
    public void pathCount(int expected) {
        if (world.followed().size() != expected) {
            throw new AssertionError(world.followed().size() + " paths, not " + expected + ":\n" + render(world.followed()));
        }
    }

    @Then("the connection is delivered")
    public void delivered() {
        List<PathTrace> failed = world.followed().stream().filter(p -> p.disposition() != Disposition.DELIVERED).toList();
        if (world.followed().isEmpty() || !failed.isEmpty()) {
            throw new AssertionError(failed.size() + " of " + world.followed().size() + " paths are not delivered:\n" + render(failed));
        }
    }

    @Then("the connection is not delivered")
    public void notDelivered() {
        List<PathTrace> delivered = world.followed().stream().filter(p -> p.disposition() == Disposition.DELIVERED).toList();
        if (!delivered.isEmpty()) {
            throw new AssertionError(delivered.size() + " paths are delivered:\n" + render(delivered));
        }
    }

    @Then("every path ends {word}")
    public void everyPathEnds(String disposition) {
        Disposition expected = Disposition.parse(disposition)
                .orElseThrow(() -> new IllegalArgumentException("'" + disposition + "' is no disposition (delivered, dropped, no-route, unreachable)"));
        List<PathTrace> other = world.followed().stream().filter(p -> p.disposition() != expected).toList();
        if (!other.isEmpty()) {
            throw new AssertionError(other.size() + " paths do not end " + disposition + ":\n" + render(other));
        }
    }

    @Then("every path crosses {word}")
    public void everyPathCrosses(String host) {
        HostId id = HostNames.parse(host);
        List<PathTrace> missing = world.followed().stream().filter(p -> !crosses(p.forward(), List.of(id))).toList();
        if (!missing.isEmpty()) {
            throw new AssertionError(missing.size() + " paths do not cross " + host + ":\n" + render(missing));
        }
    }

    @Then("no path crosses {word}")
    public void noPathCrosses(String host) {
        HostId id = HostNames.parse(host);
        List<PathTrace> crossing = world.followed().stream()
                .filter(p -> crosses(p.forward(), List.of(id)) || crosses(p.reply(), List.of(id))).toList();
        if (!crossing.isEmpty()) {
            throw new AssertionError(crossing.size() + " paths cross " + host + ":\n" + render(crossing));
        }
    }

    @Then("no packet reaches cluster {word}")
    public void noPacketReaches(String cluster) {
        List<PathTrace> reaching = world.followed().stream()
                .filter(p -> p.forward().stream().anyMatch(h -> h.node().cluster().equals(cluster))
                        || p.reply().stream().anyMatch(h -> h.node().cluster().equals(cluster)))
                .toList();
        if (!reaching.isEmpty()) {
            throw new AssertionError(reaching.size() + " paths reach cluster " + cluster + ":\n" + render(reaching));
        }
    }

    @Then("^the paths are spread over (.+)$")
    public void spreadOver(String hosts) {
        List<HostId> gateways = HostNames.parseList(hosts);
        for (PathTrace path : world.followed()) {
            long crossed = gateways.stream().filter(g -> crosses(path.forward(), List.of(g))).count();
            if (crossed != 1) {
                throw new AssertionError("a path crosses " + crossed + " of " + gateways + ", not exactly one:\n" + render(List.of(path)));
            }
        }
        for (HostId gateway : gateways) {
            if (world.followed().stream().noneMatch(p -> crosses(p.forward(), List.of(gateway)))) {
                throw new AssertionError("no path crosses " + gateway + ":\n" + render(world.followed()));
            }
        }
    }

    @Then("every path is delivered and its reply returns through the gateway of {word} its request left by")
    public void repliesReturnThroughTheGatewayTheyLeftBy(String cluster) {
        delivered();
        java.util.Set<HostId> gateways = world.clusterSet().requireCluster(cluster).activeGateways().stream()
                .map(g -> HostId.node(cluster, g.name())).collect(Collectors.toSet());
        for (PathTrace path : world.followed()) {
            java.util.Optional<HostId> out = path.forward().stream().map(Hop::node).filter(gateways::contains).findFirst();
            java.util.Optional<HostId> back = path.reply().stream().map(Hop::node).filter(gateways::contains).findFirst();
            if (out.isEmpty() || !out.equals(back)) {
                throw new AssertionError("the request left " + cluster + " by " + out.map(HostId::toString).orElse("no gateway")
                        + " and its reply came back by " + back.map(HostId::toString).orElse("no gateway") + ":\n" + render(List.of(path)));
            }
        }
    }

    @Then("some paths end {word} and the others are delivered")
    public void somePathsEnd(String disposition) {
        Disposition expected = Disposition.parse(disposition)
                .orElseThrow(() -> new IllegalArgumentException("'" + disposition + "' is no disposition (delivered, dropped, no-route, unreachable)"));
        List<PathTrace> other = world.followed().stream()
                .filter(p -> p.disposition() != expected && p.disposition() != Disposition.DELIVERED).toList();
        if (!other.isEmpty() || world.followed().stream().noneMatch(p -> p.disposition() == expected)
                || world.followed().stream().noneMatch(p -> p.disposition() == Disposition.DELIVERED)) {
            throw new AssertionError("expected some paths " + disposition + " and the others delivered:\n" + render(world.followed()));
        }
    }

    @Then("the replies return through {word} on some paths and through {word} on others")
    public void repliesReturnThrough(String first, String second) {
        for (String host : List.of(first, second)) {
            HostId id = HostNames.parse(host);
            if (world.followed().stream().noneMatch(p -> crosses(p.reply(), List.of(id)))) {
                throw new AssertionError("no reply returns through " + host + ":\n" + render(world.followed()));
            }
        }
    }

    @Then("the packet goes:")
    public void packetGoes(DataTable table) {
        for (PathTrace path : world.followed()) {
            expectWalk("forward", path, path.forward(), table);
        }
    }

    @Then("the reply goes:")
    public void replyGoes(DataTable table) {
        for (PathTrace path : world.followed()) {
            if (!path.hasReply()) {
                throw new AssertionError("a path has no reply (" + path.disposition().yamlName() + path.reason().map(r -> ": " + r).orElse("")
                        + "):\n" + render(List.of(path)));
            }
            expectWalk("reply", path, path.reply(), table);
        }
    }

    @Then("no address is translated outside the gateways")
    public void translationsOnlyOnGateways() {
        for (PathTrace path : world.followed()) {
            for (List<Hop> direction : List.of(path.forward(), path.reply())) {
                for (PathWalk.Event event : PathWalk.of(direction).events()) {
                    if (TRANSLATIONS.contains(event.kind()) && !isGateway(event.node())) {
                        throw new AssertionError("translation on " + event.node() + ", which is no gateway: " + event.describe());
                    }
                }
            }
        }
    }

    @Then("the packets between the clusters travel in a {word} cable")
    public void cableBetweenClusters(String driver) {
        for (PathTrace path : world.followed()) {
            for (List<Hop> direction : List.of(path.forward(), path.reply())) {
                for (int i = 0; i + 1 < direction.size(); i++) {
                    Hop hop = direction.get(i);
                    if (hop.node().cluster().equals(direction.get(i + 1).node().cluster())) {
                        continue;
                    }
                    String cable = CableSeen.on(hop);
                    if (!cable.equals(driver)) {
                        throw new AssertionError("from " + hop.node() + " to " + direction.get(i + 1).node() + " the packet travels in "
                                + cable + ", not in a " + driver + " cable:\n" + render(List.of(path)));
                    }
                }
            }
        }
    }

    /**
     * The backend's evidence: in the lab a capture on the gateways' underlay, where the probe's marker
     * and the inner addresses must not appear in clear and the cable's own messages must carry it; on
     * the simulator its own account of the encapsulation (see {@link io.periscope.features.backend.Deployment#secrecy}).
     * Where the backend cannot show it (the lab substitutes Libreswan) the scenario is skipped with
     * the reason, not passed.
     */
    @Then("the packets between the clusters are encrypted")
    public void encryptedBetweenClusters() {
        switch (world.deployment().secrecy(world.followed())) {
            case CableSecrecy.Shown shown -> {
                // shown.how() says by what; nothing more to check
            }
            case CableSecrecy.NotShown notShown -> throw new TestAbortedException("not shown: " + notShown.why());
            case CableSecrecy.Contradicted contradicted -> throw new AssertionError("the packets between the clusters are not shown "
                    + "encrypted: " + contradicted.what() + "\n" + render(world.followed()));
        }
    }

    private boolean isGateway(HostId host) {
        if (host.isPod()) {
            return false;
        }
        Cluster cluster = world.clusterSet().requireCluster(host.cluster());
        return cluster.node(host.name()).map(n -> n.gateway()).orElse(false);
    }

    private void expectWalk(String direction, PathTrace path, List<Hop> hops, DataTable table) {
        PathWalk walk = PathWalk.of(hops);
        List<PathWalk.Event> events = walk.events();
        int at = 0;
        for (Map<String, String> row : table.asMaps()) {
            ExpectedEvent expected = ExpectedEvent.of(row);
            int found = -1;
            for (int i = at; i < events.size(); i++) {
                if (expected.matches(events.get(i))) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                throw new AssertionError("the " + direction + " packets never show " + expected + " (after "
                        + (at == 0 ? "the start" : events.get(at - 1).describe()) + "); they go:\n" + walk.describe()
                        + "the path:\n" + render(List.of(path)));
            }
            at = found + 1;
        }
    }

    static boolean crosses(List<Hop> hops, List<HostId> hosts) {
        Set<HostId> seen = hops.stream().map(Hop::node).collect(Collectors.toSet());
        return seen.containsAll(hosts);
    }

    private String render(List<PathTrace> paths) {
        FlowTrace trace = world.trace();
        return TraceText.render(new FlowTrace(trace.name(), trace.from(), trace.to(), trace.resolved(), new ArrayList<>(paths)));
    }

    /** One row of a packet table: where, what kind of step, its text, and the addresses after it. */
    private record ExpectedEvent(String doc, HostId node, String kind, TextPattern detail, AddressPattern src, AddressPattern dst) {

        static ExpectedEvent of(Map<String, String> row) {
            String node = row.get("node");
            String kind = row.get("step");
            if (node == null || kind == null) {
                throw new IllegalArgumentException("a packet table needs the columns node and step (and optionally doc, detail, SRC, DST); got "
                        + row.keySet());
            }
            return new ExpectedEvent(Optional.ofNullable(row.get("doc")).orElse(""), HostNames.parse(node), kind.trim(),
                    TextPattern.parse(row.get("detail")), AddressPattern.parse(row.get("SRC")), AddressPattern.parse(row.get("DST")));
        }

        boolean matches(PathWalk.Event event) {
            return event.node().equals(node) && event.kind().equals(kind) && (detail.isEmpty() || detail.foundIn(event.text()))
                    && src.matches(event.packet().src(), event.packet().sport())
                    && dst.matches(event.packet().dst(), event.packet().dport());
        }

        @Override
        public String toString() {
            return (doc.isBlank() ? "" : "step " + doc + " of the document: ") + node + " " + kind
                    + (detail.isEmpty() ? "" : " '" + detail + "'") + " SRC " + src + " DST " + dst;
        }
    }
}
