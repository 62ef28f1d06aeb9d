package io.periscope.simulator;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.planner.Planner;
import io.periscope.simulator.trace.FlowTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static io.periscope.simulator.TraceQueries.tcp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A simulator built by {@link Simulator#compilingOnFirstUse} compiles each host when a trace first
 * reaches it. What it traces must be what a simulator that compiled every host up front traces,
 * whichever order the flows reach the hosts in and however many threads trace at once; a plan no
 * kernel would take is refused by the first trace that reaches the faulty host, with the same words.
 */
class AHostCompiledOnFirstUseTracesAsOneCompiledUpFront {

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleFlowTracesTheSameInReverseOrder(Path example) throws IOException, TopologyException, FlowResolutionException {
        ClusterSet set = TopologyLoader.load(example);
        ClusterSetPlan plan = Planner.plan(set);
        List<FlowTrace> upFront = new Simulator(plan).traceAll();

        // Last flow first: the hosts are compiled in another order than the file's flows reach them.
        Simulator onFirstUse = Simulator.compilingOnFirstUse(plan, MultipathMode.ALL_BRANCHES);
        List<Flow> flows = set.flows();
        for (int i = flows.size() - 1; i >= 0; i--) {
            assertThat(onFirstUse.trace(flows.get(i))).as("%s: %s", example.getFileName(), flows.get(i).name()).isEqualTo(upFront.get(i));
        }
    }

    @Test
    void threadsTracingAtOnceEachSeeWhatOneThreadCompiledUpFrontSees() throws Exception {
        ClusterSet set = TopologyLoader.load(Path.of("..", "examples", "mag-globalnet.yaml"));
        ClusterSetPlan plan = Planner.plan(set);
        List<FlowTrace> upFront = new Simulator(plan).traceAll();
        int threads = 8;
        for (int round = 0; round < 20; round++) {
            // A fresh simulator each round, so that the threads race to compile the same hosts.
            Simulator onFirstUse = Simulator.compilingOnFirstUse(plan, MultipathMode.ALL_BRANCHES);
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Callable<List<String>>> tracers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(round * threads + t);
                tracers.add(() -> {
                    List<Integer> order = new ArrayList<>();
                    for (int i = 0; i < set.flows().size(); i++) {
                        order.add(i);
                    }
                    Collections.shuffle(order, random);
                    start.await();
                    List<String> differing = new ArrayList<>();
                    for (int i : order) {
                        if (!onFirstUse.trace(set.flows().get(i)).equals(upFront.get(i))) {
                            differing.add(set.flows().get(i).name());
                        }
                    }
                    return differing;
                });
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                for (Future<List<String>> differing : pool.invokeAll(tracers)) {
                    assertThat(differing.get()).as("flows traced otherwise in round %d", round).isEmpty();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aRouteNamingAMissingNexthopIsRefusedByTheFirstTraceThatReachesItsHost() {
        PlanFixture f = new PlanFixture();
        PlanFixture.HostBuilder n1 = f.node("c1", "n1", "172.18.0.1", "10.0.1.1");
        f.pod(n1, "default", "client", "10.0.1.4");
        n1.route("10.0.9.0/24 nhid 7");
        ClusterSetPlan plan = f.build();
        String refusal = "c1/n1: route to 10.0.9.0/24 in table 254 names nexthop id 7";
        assertThatThrownBy(() -> new Simulator(plan)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(refusal);

        Simulator onFirstUse = Simulator.compilingOnFirstUse(plan, MultipathMode.ALL_BRANCHES);
        // The client's pod compiles; its packet then reaches n1, whose route cannot be programmed.
        assertThatThrownBy(() -> onFirstUse.trace(tcp(HostId.pod("c1", "default", "client"), "10.0.1.4", "10.0.9.5", 80)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(refusal);
    }
}
