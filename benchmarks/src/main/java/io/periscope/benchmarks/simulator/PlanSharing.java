package io.periscope.benchmarks.simulator;

import io.periscope.model.load.TopologyLoader;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.netfilter.NetfilterFootprint;

import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Set;

/**
 * How much of a cluster set's netfilter plan its hosts share: the simulator compiles every table of
 * every host's effective plan, so each rule of each host is a compiled rule, while the planner hands
 * the hosts the same table, chain and rule objects wherever they hold the same thing (kube-proxy's
 * chains on every node of every cluster). The ratio of rules to distinct rule objects bounds what a
 * compilation shared between hosts could save at most. Then what the simulator's compilation keeps:
 * compiled chains and rules summed over the hosts, and how many objects they are (a chain that reads
 * nothing of its host is compiled once for every host that has it). Run it with
 * {@code cli/target/periscope.jar} and the benchmarks' jar on the class path
 * (scripts/benchmarks-jar.sh); the argument is a topology file.
 */
public final class PlanSharing {

    private PlanSharing() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: PlanSharing TOPOLOGY_FILE");
            System.exit(2);
        }
        ClusterSetPlan plan = Planner.plan(TopologyLoader.load(Path.of(args[0])));
        long hosts = 0;
        long tables = 0;
        long chains = 0;
        long rules = 0;
        Set<NetfilterTable> distinctTables = identitySet();
        Set<Chain> distinctChains = identitySet();
        Set<Rule> distinctRules = identitySet();
        for (HostPlan host : plan.hosts().values()) {
            hosts++;
            DataplanePlan effective = host.effective();
            for (NetfilterTable table : effective.netfilter()) {
                tables++;
                distinctTables.add(table);
                for (Chain chain : table.chains()) {
                    chains++;
                    distinctChains.add(chain);
                    for (Rule rule : chain.inOrder()) {
                        rules++;
                        distinctRules.add(rule);
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%s: %,d hosts%n", args[0], hosts);
        System.out.printf(Locale.ROOT, "  tables %,d, distinct objects %,d (%.0fx)%n", tables, distinctTables.size(),
                (double) tables / distinctTables.size());
        System.out.printf(Locale.ROOT, "  chains %,d, distinct objects %,d (%.0fx)%n", chains, distinctChains.size(),
                (double) chains / distinctChains.size());
        System.out.printf(Locale.ROOT, "  rules %,d, distinct objects %,d (%.0fx)%n", rules, distinctRules.size(),
                (double) rules / distinctRules.size());
        long start = System.nanoTime();
        NetfilterFootprint compiled = new Simulator(plan).netfilterFootprint();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "compiled by the simulator (%.2f s, the JIT cold):%n", seconds);
        System.out.printf(Locale.ROOT, "  chains %,d, distinct objects %,d (%.1fx)%n", compiled.chains(), compiled.distinctChains(),
                (double) compiled.chains() / compiled.distinctChains());
        System.out.printf(Locale.ROOT, "  rules %,d, distinct objects %,d (%.1fx)%n", compiled.rules(), compiled.distinctRules(),
                (double) compiled.rules() / compiled.distinctRules());
    }

    private static <T> Set<T> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }
}
