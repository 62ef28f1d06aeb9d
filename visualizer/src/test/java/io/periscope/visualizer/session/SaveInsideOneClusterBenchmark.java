package io.periscope.visualizer.session;

import io.periscope.model.generate.SyntheticClusterSet;
import io.periscope.model.load.FlowEndpointSyntax;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.Service;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The server's share of the redraw after a save inside one cluster (issue 32), without a browser:
 * the generated 20-cluster set of {@code scripts/benchmark-visualizer} with its one flow, a pod of
 * cluster c10 renamed and renamed back, each save timed around {@link Workspace#reload} (read, plan,
 * simulator, layout, traces, document) and the trace of the flow after it; then, on the renamed set,
 * planning alone and an up-front {@code new Simulator(plan)} alone. It uses only API that main had
 * before issue 32's lazy compilation, so the same class runs against an anchor's build for a
 * side-by-side figure. Not a test: a main, printing medians.
 *
 * <p>Run: {@code java -cp visualizer/target/test-classes:visualizer/target/classes:...:model/target/test-classes:(the
 * test class path) io.periscope.visualizer.session.SaveInsideOneClusterBenchmark [ROUNDS]}.
 */
public final class SaveInsideOneClusterBenchmark {

    /** Saves left out of the medians: the JIT's warm-up. */
    private static final int WARM_UP = 10;

    private SaveInsideOneClusterBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        ClusterSet set = withOneFlow(new SyntheticClusterSet(20, 4, 2, 8, 2, 0, GlobalnetMode.V2).build());
        Path dir = Files.createTempDirectory("save-inside-one-cluster");
        Path file = dir.resolve("synthetic-20.yaml");
        String text = TopologyWriter.write(set);
        Cluster edited = set.clusters().get(10);
        String pod = "- name: " + edited.pods().get(3).name() + "\n";
        int at = text.indexOf(pod, text.indexOf("  - name: " + edited.name() + "\n"));
        if (at < 0) {
            throw new IllegalStateException("cluster " + edited.name() + " of the written set has no '" + pod.strip() + "'");
        }
        String renamed = text.substring(0, at) + pod.replace("\n", "-renamed\n") + text.substring(at + pod.length());
        Files.writeString(file, text);
        Workspace workspace = new Workspace(file);
        Flow flow = set.flows().getFirst();

        List<Double> reload = new ArrayList<>();
        List<Double> trace = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            Files.writeString(file, i % 2 == 0 ? renamed : text);
            long start = System.nanoTime();
            if (!workspace.reload()) {
                throw new IllegalStateException("the save was not seen");
            }
            long reloaded = System.nanoTime();
            if (!(workspace.state() instanceof Workspace.Ready ready)) {
                throw new IllegalStateException("the save did not load: " + workspace.document(List.of()));
            }
            ready.healthy().trace(flow);
            reload.add((reloaded - start) / 1e6);
            trace.add((System.nanoTime() - reloaded) / 1e6);
        }
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);

        ClusterSet renamedSet = TopologyLoader.parse(renamed, file.toString());
        List<Double> plan = new ArrayList<>();
        List<Double> simulator = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            long start = System.nanoTime();
            ClusterSetPlan planned = Planner.plan(renamedSet);
            long built = System.nanoTime();
            new Simulator(planned);
            simulator.add((System.nanoTime() - built) / 1e6);
            plan.add((built - start) / 1e6);
        }
        System.out.printf(Locale.ROOT, "20 clusters, a pod of %s renamed and back, %d saves (medians of all but the first %d):%n",
                edited.name(), rounds, WARM_UP);
        print("Workspace.reload", reload);
        print("the flow's trace after it", trace);
        print("Planner.plan alone", plan);
        print("new Simulator(plan) alone", simulator);
    }

    private static void print(String what, List<Double> measured) {
        List<Double> warm = new ArrayList<>(measured.subList(Math.min(WARM_UP, measured.size() - 1), measured.size()));
        Collections.sort(warm);
        System.out.printf(Locale.ROOT, "  %-27s first %.0f ms; median %.1f ms, min %.1f, max %.1f%n", what, measured.getFirst(),
                warm.get(warm.size() / 2), warm.getFirst(), warm.getLast());
    }

    /** The benchmark's flow: the first cluster's first pod to the last cluster's own export of its first service. */
    private static ClusterSet withOneFlow(ClusterSet set) {
        Cluster first = set.clusters().getFirst();
        Cluster last = set.clusters().getLast();
        Pod pod = first.pods().getFirst();
        var export = last.exports().getFirst();
        Service service = last.service(export.namespace(), export.name()).orElseThrow();
        Flow flow = new Flow("first-to-last", FlowEndpointSyntax.parseSource(first.name() + "/" + pod.namespace() + "/" + pod.name()),
                FlowEndpointSyntax.parseTarget(last.name() + "." + service.name() + "." + service.namespace() + ".svc.clusterset.local:"
                        + service.ports().getFirst().port()), Protocol.TCP, Optional.empty());
        return set.withFlows(List.of(flow));
    }
}
