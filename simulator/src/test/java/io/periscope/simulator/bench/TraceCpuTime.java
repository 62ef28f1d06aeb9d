package io.periscope.simulator.bench;

import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.planner.Planner;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.ResolvedFlow;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.PathTrace;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@link TraceThroughput}'s work, timed by the tracing thread's CPU time instead of the clock: flows
 * per CPU second, one figure per second of CPU, then their median and best. On a core shared with
 * other work the clock counts the time others ran; the thread's CPU time does not (nor the
 * collector's, which runs in threads of its own), so two trees compared this way on a busy machine
 * keep a steadier ratio. It uses only API that commit 162a109 already had, so it can be compiled
 * against that commit's classes. Arguments: topology file, {@link MultipathMode}, seconds of CPU.
 */
public final class TraceCpuTime {

    private TraceCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: TraceCpuTime TOPOLOGY ALL_BRANCHES|HASH SECONDS");
            System.exit(2);
        }
        ClusterSet set = TopologyLoader.load(Path.of(args[0]));
        Simulator simulator = new Simulator(Planner.plan(set), MultipathMode.valueOf(args[1]));
        ResolvedFlow flow = simulator.resolver().resolve(set.flows().getFirst());
        int seconds = Integer.parseInt(args[2]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] rates = new long[seconds];
        int delivered = 0;
        for (int s = 0; s < seconds; s++) {
            long start = threads.getCurrentThreadCpuTime();
            long flows = 0;
            while (threads.getCurrentThreadCpuTime() - start < 1_000_000_000L) {
                for (int i = 0; i < 100; i++) {
                    List<PathTrace> paths = simulator.trace(flow);
                    delivered += paths.size();
                    flows++;
                }
            }
            rates[s] = Math.round(flows * 1e9 / (threads.getCurrentThreadCpuTime() - start));
            System.out.println("second " + (s + 1) + ": " + rates[s] + " flows per CPU second");
        }
        // The first half warms the JIT up; the figures are the second half's.
        long[] measured = Arrays.copyOfRange(rates, seconds / 2, seconds);
        Arrays.sort(measured);
        System.out.println("median " + measured[(measured.length - 1) / 2] + ", best " + measured[measured.length - 1]
                + " flows per CPU second (" + delivered + " paths traced)");
    }
}
