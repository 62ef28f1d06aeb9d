package io.periscope.simulator.reachability;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's own rules that name one pod (a DROP of what is sent to it or what it sends, in a chain of
 * any table the packets pass; a DNAT or MASQUERADE in the nat table) tell that pod apart from the pods the matrix would treat alike, as a
 * sender (its class's stand-in) and as a backend (a fork's folded branches): the matrix must still be
 * the one with every pod traced and every path walked. The cluster sets are small generated ones,
 * the rules drawn with seeded dice.
 */
class RulesNamingOnePodKeepTheMatrixExact {

    static IntStream seeds() {
        return IntStream.range(0, 100);
    }

    static IntStream natSeeds() {
        return IntStream.range(100, 150);
    }

    /** Where a node's own DROP may sit: a built-in chain of a table. */
    private record Place(Table table, String chain) {
    }

    private static final List<Place> PLACES = List.of(new Place(Table.RAW, "PREROUTING"), new Place(Table.MANGLE, "PREROUTING"),
            new Place(Table.FILTER, "FORWARD"), new Place(Table.FILTER, "INPUT"), new Place(Table.FILTER, "OUTPUT"),
            new Place(Table.MANGLE, "POSTROUTING"), new Place(Table.RAW, "OUTPUT"));

    @ParameterizedTest
    @MethodSource("seeds")
    void theMatrixWithDropsNamingPodsIsEveryPodTraced(int seed) {
        assertEveryPodTraced(seed, false);
    }

    /** As above, a third of the rules a DNAT of what is sent to the pod to another pod, or a MASQUERADE of what it sends. */
    @ParameterizedTest
    @MethodSource("natSeeds")
    void theMatrixWithNatRulesNamingPodsIsEveryPodTraced(int seed) {
        assertEveryPodTraced(seed, true);
    }

    private static void assertEveryPodTraced(int seed, boolean nat) {
        Random dice = new Random(seed);
        ClusterSet set = new SyntheticClusterSet(2 + dice.nextInt(2), 2 + dice.nextInt(3), 1 + dice.nextInt(2), 8 + dice.nextInt(24),
                1 + dice.nextInt(2), dice.nextInt(3), GlobalnetMode.V2, 1 + dice.nextInt(3)).build();
        ClusterSetPlan plan = Planner.plan(set);
        List<String> rules = new ArrayList<>();
        for (int r = 1 + dice.nextInt(3); r > 0; r--) {
            Cluster cluster = set.clusters().get(dice.nextInt(set.clusters().size()));
            Pod pod = cluster.pods().get(dice.nextInt(cluster.pods().size()));
            // Mostly the pod's own node, where its packets surely pass; sometimes another node of its cluster.
            Node node = dice.nextInt(3) > 0 ? cluster.node(pod.node()).orElseThrow() : cluster.nodes().get(dice.nextInt(cluster.nodes().size()));
            Ipv4Prefix address = Ipv4Prefix.host(pod.ip());
            Place place = PLACES.get(dice.nextInt(PLACES.size()));
            Match match = dice.nextBoolean() ? new Match.Destination(address, false) : new Match.Source(address, false);
            Target target = new Target.Drop();
            if (nat && dice.nextInt(3) == 0) {
                boolean dnat = dice.nextBoolean();
                Pod other = cluster.pods().get(dice.nextInt(cluster.pods().size()));
                place = new Place(Table.NAT, dnat ? "PREROUTING" : "POSTROUTING");
                match = dnat ? new Match.Destination(address, false) : new Match.Source(address, false);
                target = dnat ? new Target.Dnat(other.ip(), OptionalInt.empty()) : new Target.Masquerade();
            }
            plan = AlikeEndpointsAreWalkedOncePerFork.withRule(plan, HostId.node(cluster.name(), node.name()), place.table(), place.chain(),
                    Rule.of(target, match));
            rules.add(cluster.name() + "/" + node.name() + " " + place + " " + match + " " + target);
        }
        Simulator simulator = new Simulator(plan);

        ReachabilityMatrix matrix = ReachabilityMatrix.of(simulator, MatrixProgress.NONE);
        ReachabilityMatrix everyPod = ReachabilityMatrix.everyPodTraced(simulator);

        for (int row = 0; row < everyPod.sources().size(); row++) {
            assertThat(matrix.cells().get(row)).as("seed %d, rules %s, row %s", seed, rules, everyPod.sources().get(row))
                    .isEqualTo(everyPod.cells().get(row));
        }
    }
}
