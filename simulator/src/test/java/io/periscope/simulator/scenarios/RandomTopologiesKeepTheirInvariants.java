package io.periscope.simulator.scenarios;

import io.periscope.model.generate.RandomClusterSet;
import io.periscope.model.load.SourcePositions;
import io.periscope.model.load.TopologyValidator;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.planner.Planner;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On generated topologies (2 to 4 clusters, 1 to 3 gateways, Globalnet on and off, multiple active
 * gateways on and off, GlobalEgressIPs, ClusterIP and headless exports): every delivered reply
 * reaches the original source with the original addresses swapped; no path visits a host twice in
 * one direction; a flow's paths are exactly the product of the multipath choices on its way; and
 * every flow is delivered on every path, except in the one case seed 004 leaves open.
 *
 * <p>That case: with multiple active gateways and Globalnet, seed 004 pins only the
 * ClusterGlobalEgressIPs to their gateway (metric-98 routes). A pod that leaves with a
 * GlobalEgressIP or its headless-service address leaves through any gateway, and the reply may come
 * back through another one, which has no NAT state for it. With the setting off (seed 004 as
 * written) the test pins exactly that: such a path is delivered when its reply comes back through
 * the gateway that did the SNAT and fails, for want of NAT state, when it comes back through
 * another; and across the seeds such flows occur, some of their paths are delivered and some fail.
 * A change that delivered every path, or broke every one, fails it. With {@code egressOwnership:
 * per-gateway} every flow is delivered on every path.
 */
class RandomTopologiesKeepTheirInvariants {

    private static final Pattern CHOICE = Pattern.compile("(.*): nexthop (\\d+) of (\\d+) .*");

    static LongStream seeds() {
        return LongStream.range(1, 41);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyFlowKeepsTheInvariants(long seed) throws Exception {
        ClusterSet set = RandomClusterSet.generate(seed);
        assertThat(TopologyValidator.validate(set, SourcePositions.NONE, "generated")).as("the generator makes valid sets").isEmpty();
        Simulator simulator = new Simulator(Planner.plan(set));
        assertThat(set.flows()).isNotEmpty();
        for (Flow flow : set.flows()) {
            ResolvedFlow resolved = simulator.resolver().resolve(flow);
            List<PathTrace> paths = simulator.trace(resolved);
            assertThat(paths).as(flow.name()).isNotEmpty();
            boolean unpinned = leavesWithAnUnpinnedAddress(set, (io.periscope.model.topology.FlowSource.PodSource) flow.from());
            for (PathTrace path : paths) {
                if (unpinned && !returnsThroughTheSnatGateway(path, flow)) {
                    assertThat(path.disposition()).as(flow.name() + " " + path.choices() + ": the reply reached a gateway without the NAT state")
                            .isNotEqualTo(Disposition.DELIVERED);
                    assertThat(path.reason()).as(flow.name()).hasValueSatisfying(reason -> assertThat(reason).startsWith("reply: ")
                            .containsAnyOf("no route to 242.", "but the sender"));
                    continue;
                }
                assertThat(path.disposition()).as(flow.name() + " " + path.reason().orElse("") + " " + path.choices())
                        .isEqualTo(Disposition.DELIVERED);
                assertNoHostTwice(path.forward(), flow.name());
                assertNoHostTwice(path.reply(), flow.name());
                Packet delivered = lastDelivery(path.reply());
                assertThat(delivered.src()).isEqualTo(resolved.destination());
                assertThat(delivered.dst()).isEqualTo(resolved.sourceIp().orElseThrow());
                assertThat(delivered.sport()).isEqualTo(resolved.port());
                assertThat(delivered.dport()).isEqualTo(resolved.sourcePort());
            }
            assertPathsAreTheProductOfChoices(paths, flow.name());
        }
    }

    /**
     * The same sets with per-gateway egress ownership on every cluster that has several active
     * gateways: the gap is closed, so every flow is delivered on every path, forward and reply.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void perGatewayEgressDeliversEveryFlow(long seed) throws Exception {
        ClusterSet generated = RandomClusterSet.generate(seed);
        ClusterSet set = generated.withClusters(generated.clusters().stream()
                .map(c -> c.multiActiveGateways() ? c.withEgressOwnership(io.periscope.model.topology.EgressOwnership.PER_GATEWAY) : c)
                .toList());
        Simulator simulator = new Simulator(Planner.plan(set));
        for (Flow flow : set.flows()) {
            ResolvedFlow resolved = simulator.resolver().resolve(flow);
            List<PathTrace> paths = simulator.trace(resolved);
            assertThat(paths).as(flow.name()).isNotEmpty();
            for (PathTrace path : paths) {
                assertThat(path.disposition()).as(flow.name() + " " + path.reason().orElse("") + " " + path.choices())
                        .isEqualTo(Disposition.DELIVERED);
                Packet delivered = lastDelivery(path.reply());
                assertThat(delivered.dst()).isEqualTo(resolved.sourceIp().orElseThrow());
            }
            assertPathsAreTheProductOfChoices(paths, flow.name());
        }
    }

    /**
     * Seed 004 as written, over all the seeds: pods that leave with a GlobalEgressIP's or their
     * headless address behind several active gateways occur, and of their paths some are delivered
     * (the reply came back through the SNATing gateway) and some are not (it came back through
     * another). That is today's documented behaviour (docs/plan.md, "A gap seed 004 leaves open").
     */
    @Test
    void sharedEgressBreaksSomeAffectedPathsAndDeliversOthersAcrossTheSeeds() throws Exception {
        int affectedFlows = 0;
        int delivered = 0;
        int broken = 0;
        for (long seed : seeds().toArray()) {
            ClusterSet set = RandomClusterSet.generate(seed);
            Simulator simulator = new Simulator(Planner.plan(set));
            for (Flow flow : set.flows()) {
                if (!leavesWithAnUnpinnedAddress(set, (io.periscope.model.topology.FlowSource.PodSource) flow.from())) {
                    continue;
                }
                affectedFlows++;
                for (PathTrace path : simulator.trace(simulator.resolver().resolve(flow))) {
                    if (path.disposition() == Disposition.DELIVERED) {
                        delivered++;
                    } else {
                        broken++;
                    }
                }
            }
        }
        assertThat(affectedFlows).as("flows leaving with an unpinned address behind several active gateways").isPositive();
        assertThat(broken).as("their paths whose reply reaches a gateway without the NAT state").isPositive();
        assertThat(delivered).as("their paths whose reply comes back through the SNATing gateway").isPositive();
    }

    /**
     * Whether the reply re-enters the source cluster through the gateway the request left it from
     * (the one holding the connection's NAT state), or never crosses a gateway of it at all.
     */
    private static boolean returnsThroughTheSnatGateway(PathTrace path, Flow flow) {
        String cluster = flow.from().cluster();
        Optional<String> out = path.forward().stream().filter(h -> h.node().cluster().equals(cluster) && h.out().filter("vxlan-tunnel"::equals).isPresent())
                .map(h -> h.node().toString()).findFirst();
        Optional<String> back = path.reply().stream().filter(h -> h.node().cluster().equals(cluster) && h.in().filter("vxlan-tunnel"::equals).isPresent())
                .map(h -> h.node().toString()).findFirst();
        return out.isEmpty() || out.equals(back);
    }

    /**
     * Does the pod leave its cluster with an address that only its cluster's gateways know (a
     * GlobalEgressIP's, or its own as a headless-service backend), through more than one gateway?
     */
    private static boolean leavesWithAnUnpinnedAddress(ClusterSet set, io.periscope.model.topology.FlowSource.PodSource source) {
        var cluster = set.requireCluster(source.cluster());
        if (!set.globalnet().enabled() || cluster.activeGateways().size() < 2) {
            return false;
        }
        var pod = cluster.pod(source.namespace(), source.pod()).orElseThrow();
        boolean selected = cluster.globalEgressIPs().stream().anyMatch(e -> e.numberOfIPs() > 0 && e.namespace().equals(pod.namespace())
                && e.podSelector().map(s -> s.matches(pod.labels())).orElse(true));
        boolean headlessBackend = cluster.services().stream().anyMatch(s -> s.headless() && cluster.isExported(s)
                && cluster.endpointsOf(s).contains(pod));
        return selected || headlessBackend;
    }

    private static void assertNoHostTwice(List<Hop> hops, String flow) {
        Set<String> seen = new HashSet<>();
        for (Hop hop : hops) {
            assertThat(seen.add(hop.node().toString())).as(flow + " visits " + hop.node() + " twice").isTrue();
        }
    }

    private static Packet lastDelivery(List<Hop> hops) {
        Step last = hops.getLast().steps().getLast();
        assertThat(last).isInstanceOf(Step.Deliver.class);
        return last.packet();
    }

    /**
     * Every decision point "k of n" reached by some paths must be followed by exactly n distinct
     * continuations among the paths sharing the same earlier choices, and no two paths take the
     * same choices.
     */
    private static void assertPathsAreTheProductOfChoices(List<PathTrace> paths, String flow) {
        Set<List<String>> distinct = new HashSet<>();
        Map<List<String>, Set<String>> continuations = new HashMap<>();
        Map<List<String>, Integer> expected = new HashMap<>();
        for (PathTrace path : paths) {
            assertThat(distinct.add(path.choices())).as(flow + ": two paths with the same choices").isTrue();
            for (int i = 0; i < path.choices().size(); i++) {
                List<String> prefix = path.choices().subList(0, i);
                Matcher matcher = CHOICE.matcher(path.choices().get(i));
                if (!matcher.matches()) {
                    continue;
                }
                continuations.computeIfAbsent(prefix, p -> new HashSet<>()).add(matcher.group(2));
                expected.put(prefix, Integer.parseInt(matcher.group(3)));
            }
        }
        expected.forEach((prefix, n) -> assertThat(continuations.get(prefix)).as(flow + " after " + prefix).hasSize(n));
    }
}
