package io.periscope.simulator.reachability;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Pod;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.planner.Planner;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.ServiceExport;
import io.periscope.simulator.FlowResolutionException;
import io.periscope.simulator.PathCount;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.engine.EndpointClasses;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where kube-proxy forks a flow into a service's endpoints, the branches to pods the plan treats alike
 * are walked once and counted for all; a rule that tells one of those pods apart makes the branches be
 * walked one by one again. Either way the matrix is the one of every path walked.
 */
class AlikeEndpointsAreWalkedOncePerFork {

    /**
     * 2 clusters of 4 nodes (2 gateways) and 48 pods, 2 services each: a service selects the pods of its
     * app label in its namespace, 5 or 4 backends on 2 nodes, so each fork into them has 2 classes.
     */
    private static ClusterSet set() {
        return new SyntheticClusterSet(2, 4, 2, 48, 2, 1, GlobalnetMode.V2, 2).build();
    }

    @Test
    void backendsThatNothingTellsApartAreCountedAsOne() {
        Simulator simulator = new Simulator(Planner.plan(set()));
        long[] folded = {0};

        ReachabilityMatrix counted = ReachabilityMatrix.of(simulator, MatrixProgress.NONE, ReachabilityMatrix.Paths.COUNTED, f -> folded[0] = f);

        assertThat(folded[0]).isGreaterThan(counted.traced());
        assertThat(counted.cells()).isEqualTo(ReachabilityMatrix.of(simulator, MatrixProgress.NONE, ReachabilityMatrix.Paths.WALKED).cells());
    }

    @Test
    void aRuleDroppingTrafficToOneBackendIsCountedForThatBackendAlone() {
        // In the node's raw PREROUTING, which holds no other rule: the chain can act on no packet but one to
        // that backend, so a walk that skips chains that cannot act on its packet never enters it.
        long folded = assertOneBackendsPathsFail(3, Table.RAW, "PREROUTING", backend -> new Match.Destination(backend, false));

        assertThat(folded).isPositive();
    }

    @Test
    void aRuleDroppingRepliesFromOneBackendIsCountedForThatBackendAlone() {
        assertOneBackendsPathsFail(0, Table.FILTER, "FORWARD", backend -> new Match.Source(backend, false));
    }

    /**
     * {@link #assertOneBackendsPathsFail(ClusterSetPlan, Cluster)} for the set with a DROP of what
     * {@code naming} matches of endpoint {@code endpoint} of cluster 1's first service, in {@code chain} of
     * {@code table} on that endpoint's node.
     */
    private static long assertOneBackendsPathsFail(int endpoint, Table table, String chain, Function<Ipv4Prefix, Match> naming) {
        ClusterSet set = set();
        Cluster c1 = set.clusters().get(1);
        Pod backend = c1.endpointsOf(c1.services().getFirst()).get(endpoint);
        ClusterSetPlan plan = withRule(Planner.plan(set), HostId.node(c1.name(), backend.node()), table, chain,
                Rule.of(new Target.Drop(), naming.apply(Ipv4Prefix.host(backend.ip()))));
        return assertOneBackendsPathsFail(plan, c1);
    }

    /**
     * The matrix of {@code plan}, counted with alike backends folded, is the one of every path walked and
     * of every pod traced; in the column of {@code cluster}'s first service, the rows of the other clusters
     * are "part": their flows arrive at the backend's node from the gateway, and those sent on to that
     * backend end there. Returns how many branches were folded.
     */
    private static long assertOneBackendsPathsFail(ClusterSetPlan plan, Cluster cluster) {
        Simulator simulator = new Simulator(plan);
        long[] folded = {0};
        ReachabilityMatrix counted = ReachabilityMatrix.of(simulator, MatrixProgress.NONE, ReachabilityMatrix.Paths.COUNTED, f -> folded[0] = f);

        assertThat(counted.cells()).isEqualTo(ReachabilityMatrix.of(simulator, MatrixProgress.NONE, ReachabilityMatrix.Paths.WALKED).cells());
        assertThat(counted.cells()).isEqualTo(ReachabilityMatrix.everyPodTraced(simulator).cells());
        int column = counted.columns().stream().map(ReachabilityMatrix.Column::service).toList()
                .indexOf(cluster.name() + "/" + cluster.exports().getFirst());
        for (int row = 0; row < counted.sources().size(); row++) {
            String source = counted.sources().get(row);
            if (!source.startsWith(cluster.name() + "/")) {
                assertThat(counted.cells().get(row).get(column).symbol()).as(source).isEqualTo("part");
            }
        }
        return folded[0];
    }

    @Test
    void theObserverIsToldOfTheChainsOfEveryFoldedBranchWithItsOwnAddresses() throws FlowResolutionException {
        ClusterSet set = set();
        Simulator simulator = new Simulator(Planner.plan(set));
        EndpointClasses classes = ReachabilityMatrix.endpointClasses(simulator);
        int flows = 0;
        for (Cluster from : set.clusters()) {
            for (Pod pod : from.pods()) {
                for (Cluster to : set.clusters()) {
                    for (ServiceExport export : to.exports()) {
                        ResolvedFlow flow = simulator.resolver().resolve("observed", new FlowSource.PodSource(from.name(), pod.namespace(),
                                pod.name()), new FlowTarget.DnsTarget(to.name() + "." + export.name() + "." + export.namespace()
                                + ".svc.clusterset.local", 80), Protocol.TCP);
                        Set<Told> folded = new HashSet<>();
                        Set<Told> walked = new HashSet<>();

                        PathCount foldedCount = simulator.count(flow, recording(folded), null, classes);
                        PathCount walkedCount = simulator.count(flow, recording(walked), null, null);

                        assertThat(foldedCount).isEqualTo(walkedCount);
                        assertThat(folded).as("%s/%s to %s", from.name(), pod.name(), export).isEqualTo(walked);
                        flows++;
                    }
                }
            }
        }
        assertThat(flows).isEqualTo(2 * 48 * 4);
        assertThat(classes.folded()).isGreaterThan(flows);
    }

    /** A chain told to an observer, as told. */
    private record Told(HostId host, Table table, String chain, Packet packet) {
    }

    /** An observer that keeps what it is told, of every built-in chain a packet reaches (so that a walk that folds tells no more). */
    private static ChainObserver recording(Set<Told> told) {
        return new ChainObserver() {
            @Override
            public void entered(HostId host, Table table, String chain, Packet packet) {
                told.add(new Told(host, table, chain, packet));
            }

            @Override
            public boolean seesEveryChain() {
                return true;
            }
        };
    }

    /** The plan with {@code rule} added to {@code table}'s built-in {@code chain} of {@code node}, as a rule of the node's own. */
    static ClusterSetPlan withRule(ClusterSetPlan plan, HostId node, Table table, String chain, Rule rule) {
        HostPlan host = plan.hosts().get(node);
        DataplanePlan extra = new DataplanePlan(List.of(new NetfilterTable(table, List.of(new Chain(chain, List.of(rule))))),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
        Map<HostId, HostPlan> hosts = new TreeMap<>(plan.hosts());
        hosts.put(node, new HostPlan(host.id(), host.role(), host.node(), host.interfaces(), host.environment().merge(extra), host.kubeProxy(),
                host.submariner()));
        return new ClusterSetPlan(plan.clusterSet(), plan.endpoints(), new TreeMap<>(hosts), plan.segments(), plan.serviceRecords(),
                plan.allocations(), plan.ovn());
    }
}
