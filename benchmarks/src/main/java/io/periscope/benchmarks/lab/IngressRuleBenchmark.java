package io.periscope.benchmarks.lab;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.reconcile.Ownership;
import io.periscope.dataplane.reconcile.ReconcileResult;
import io.periscope.dataplane.reconcile.Reconciler;
import io.periscope.dataplane.watch.NetlinkKernelWatch;
import io.periscope.lab.agent.NamespaceCommandRunner;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.Names;
import io.periscope.planner.Planner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Programs GlobalIngressIPs on a gateway of a running lab, three ways, and prints the times: all of
 * them as DNAT rules in {@code SUBMARINER-GN-INGRESS} in one {@code iptables-restore} transaction;
 * one {@code iptables} call per rule, as upstream Submariner adds them (a sample of calls at the
 * start and at the end of the chain, extrapolated to the whole set: each call costs more the longer
 * the chain); and through Periscope's Reconciler, the whole set and then one change at a time.
 * The gateway is put back to its plan at the end.
 *
 * <p>Usage: {@code IngressRuleBenchmark FILE CLUSTER/NODE [RULES [SAMPLE]]}, with a lab of FILE up.
 */
public final class IngressRuleBenchmark {

    private static final int INCREMENTAL_RUNS = 15;
    private static final int WARM_UP_RUNS = 10;

    private IngressRuleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: IngressRuleBenchmark FILE CLUSTER/NODE [RULES [SAMPLE]]");
            System.exit(2);
        }
        var set = TopologyLoader.load(Path.of(args[0]));
        String[] node = args[1].split("/");
        int rules = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        int sample = args.length > 3 ? Integer.parseInt(args[3]) : 1_000;
        HostNamespace gateway = LabLayout.of(Planner.plan(LabCables.of(set).set())).requireHost(HostId.node(node[0], node[1]));
        DataplanePlan planned = gateway.plan().submariner();
        List<Rule> ingress = ingressRules(rules + 2 * (WARM_UP_RUNS + INCREMENTAL_RUNS));

        try (NamespaceThread thread = NamespaceThread.enter(gateway.namespace())) {
            CommandRunner runner = new NamespaceCommandRunner(thread);
            ProgramClock clock = new ProgramClock(runner);
            Reconciler reconciler = new Reconciler(clock, Ownership.submariner());
            NetlinkKernelWatch watch = thread.call(NetlinkKernelWatch::open);
            Reconciler watching = new Reconciler(clock, Ownership.submariner(), watch);
            reconciler.reconcile(planned);
            System.out.printf(Locale.ROOT, "gateway %s (namespace %s), %,d GlobalIngressIPs as DNAT rules in %s%n",
                    gateway.host(), gateway.namespace(), rules, Names.GN_INGRESS);

            String transaction = transaction(ingress.subList(0, rules));
            long restore = millis(() -> runner.run(Command.of("iptables-restore", "--noflush").withStdin(transaction)));
            requireRules(runner, rules);
            System.out.printf(Locale.ROOT, "  one iptables-restore transaction:         %,8d ms%n", restore);

            runner.run(Command.of("iptables", "-t", "nat", "-F", Names.GN_INGRESS));
            long first = millis(() -> perRule(runner, ingress.subList(0, sample)));
            runner.run(Command.of("iptables-restore", "--noflush").withStdin(transaction(ingress.subList(0, rules - sample))));
            long last = millis(() -> perRule(runner, ingress.subList(rules - sample, rules)));
            requireRules(runner, rules);
            long estimated = Math.round((double) rules / sample * (first + last) / 2.0);
            System.out.printf(Locale.ROOT, "  one iptables call per rule: first %,d calls %,d ms, last %,d calls %,d ms;%n", sample, first, sample, last);
            System.out.printf(Locale.ROOT, "    estimated for all %,d (mean of the two samples x %d): %,d ms%n", rules, rules / sample, estimated);
            System.out.printf(Locale.ROOT, "  one transaction is %.0f times faster than one call per rule%n", (double) estimated / restore);

            reconciler.reconcile(planned);
            DataplanePlan full = withIngress(planned, ingress.subList(0, rules));
            long whole = millis(() -> reconciler.reconcile(full));
            System.out.printf(Locale.ROOT, "  the whole set through the Reconciler (read, diff, one transaction): %,d ms%n", whole);

            int size = rules;
            for (Reconciler measured : List.of(reconciler, watching)) {
                String how = measured == reconciler ? "reading the whole node every time" : "reading again only what the kernel says changed";
                measured.reconcile(withIngress(planned, ingress.subList(0, size)));
                for (int i = 0; i < WARM_UP_RUNS; i++) {
                    measured.reconcile(withIngress(planned, ingress.subList(0, ++size)));
                }
                long[] changes = new long[INCREMENTAL_RUNS];
                Map<Long, Map<String, Long>> programsByTime = new TreeMap<>();
                for (int i = 0; i < INCREMENTAL_RUNS; i++) {
                    DataplanePlan next = withIngress(planned, ingress.subList(0, ++size));
                    ReconcileResult[] result = new ReconcileResult[1];
                    clock.reset();
                    changes[i] = millis(() -> result[0] = measured.reconcile(next));
                    programsByTime.put(changes[i], clock.millisByProgram());
                    if (result[0].applied().size() != 1) {
                        throw new IllegalStateException("one more GlobalIngressIP took " + result[0].applied().size() + " programs");
                    }
                }
                long[] removals = new long[INCREMENTAL_RUNS];
                Map<Long, Map<String, Long>> removalProgramsByTime = new TreeMap<>();
                for (int i = 0; i < INCREMENTAL_RUNS; i++) {
                    DataplanePlan next = withIngress(planned, ingress.subList(0, --size));
                    clock.reset();
                    removals[i] = millis(() -> measured.reconcile(next));
                    removalProgramsByTime.put(removals[i], clock.millisByProgram());
                }
                DataplanePlan reached = withIngress(planned, ingress.subList(0, size));
                long converged = millis(() -> measured.diff(reached));
                Arrays.sort(changes);
                Arrays.sort(removals);
                int median = INCREMENTAL_RUNS / 2;
                System.out.printf(Locale.ROOT, "  through the Reconciler, %s (after %d changes to warm the JVM up):%n", how, WARM_UP_RUNS);
                System.out.printf(Locale.ROOT, "    one more GlobalIngressIP: median %,d ms (min %,d, max %,d, %d runs)%n",
                        changes[median], changes[0], changes[INCREMENTAL_RUNS - 1], INCREMENTAL_RUNS);
                Map<String, Long> programs = programsByTime.get(changes[median]);
                long inPrograms = programs.values().stream().mapToLong(Long::longValue).sum();
                System.out.printf(Locale.ROOT, "      of the median run: iptables-save %,d ms, the iptables-restore transaction %,d ms,"
                                + " the other reads %,d ms, in the JVM (parse, diff, render) %,d ms%n",
                        programs.getOrDefault("iptables-save", 0L), programs.getOrDefault("iptables-restore", 0L),
                        inPrograms - programs.getOrDefault("iptables-save", 0L) - programs.getOrDefault("iptables-restore", 0L),
                        changes[median] - inPrograms);
                System.out.printf(Locale.ROOT, "    one GlobalIngressIP fewer (the last one): median %,d ms (min %,d, max %,d, %d runs)%n",
                        removals[median], removals[0], removals[INCREMENTAL_RUNS - 1], INCREMENTAL_RUNS);
                Map<String, Long> removalPrograms = removalProgramsByTime.get(removals[median]);
                long removalInPrograms = removalPrograms.values().stream().mapToLong(Long::longValue).sum();
                System.out.printf(Locale.ROOT, "      of the median run: %s, in the JVM (diff, render) %,d ms%n",
                        new TreeMap<>(removalPrograms).entrySet().stream().map(e -> e.getKey() + " " + e.getValue() + " ms")
                                .collect(java.util.stream.Collectors.joining(", ")),
                        removals[median] - removalInPrograms);
                System.out.printf(Locale.ROOT, "    checking that nothing differs (read and diff only): %,d ms%n", converged);
            }
            watch.close();

            reconciler.reconcile(planned);
        }
    }

    /** GlobalIngressIPs from 243.0.0.1 up, each DNATed to a pod address from 10.128.0.1 up. */
    static List<Rule> ingressRules(int count) {
        List<Rule> rules = new ArrayList<>(count);
        Ipv4Address global = Ipv4Address.parse("243.0.0.1");
        Ipv4Address pod = Ipv4Address.parse("10.128.0.1");
        for (int i = 0; i < count; i++) {
            rules.add(Rule.of(new Target.Dnat(pod.plus(i), OptionalInt.empty()), new Match.Destination(Ipv4Prefix.host(global.plus(i)))));
        }
        return rules;
    }

    /** The chain refilled in one transaction, as the agents' renderer writes it. */
    static String transaction(List<Rule> rules) {
        StringBuilder text = new StringBuilder("*nat\n:").append(Names.GN_INGRESS).append(" - [0:0]\n");
        rules.forEach(rule -> text.append(IptablesSyntax.appendLine(Names.GN_INGRESS, rule)).append('\n'));
        return text.append("COMMIT\n").toString();
    }

    private static void perRule(CommandRunner runner, List<Rule> rules) {
        for (Rule rule : rules) {
            List<String> argv = new ArrayList<>(List.of("iptables", "-t", "nat"));
            argv.addAll(Arrays.asList(IptablesSyntax.appendLine(Names.GN_INGRESS, rule).split(" ")));
            runner.run(new Command(argv, ""));
        }
    }

    private static void requireRules(CommandRunner runner, int expected) {
        long found = runner.run(Command.of("iptables-save", "-t", "nat")).stdout().lines()
                .filter(line -> line.startsWith("-A " + Names.GN_INGRESS + " ")).count();
        if (found != expected) {
            throw new IllegalStateException("expected " + expected + " rules in " + Names.GN_INGRESS + ", found " + found);
        }
    }

    static DataplanePlan withIngress(DataplanePlan plan, List<Rule> ingress) {
        List<NetfilterTable> tables = new ArrayList<>();
        for (NetfilterTable table : plan.netfilter()) {
            if (table.table() != Table.NAT) {
                tables.add(table);
                continue;
            }
            List<Chain> chains = new ArrayList<>();
            for (Chain chain : table.chains()) {
                chains.add(chain.name().equals(Names.GN_INGRESS) ? new Chain(chain.name(), ingress) : chain);
            }
            tables.add(new NetfilterTable(Table.NAT, chains));
        }
        return new DataplanePlan(tables, plan.ipsets(), plan.vxlanDevices(), plan.fdb(), plan.neighbours(), plan.nexthops(),
                plan.nexthopGroups(), plan.routes(), plan.rules(), plan.sysctls());
    }

    private static long millis(Runnable work) {
        long start = System.nanoTime();
        work.run();
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** Where a reconcile's time goes: the wall time of each program it ran, by program name. */
    private static final class ProgramClock implements CommandRunner {

        private final CommandRunner runner;
        private final Map<String, Long> nanos = new HashMap<>();

        ProgramClock(CommandRunner runner) {
            this.runner = runner;
        }

        void reset() {
            nanos.clear();
        }

        Map<String, Long> millisByProgram() {
            Map<String, Long> millis = new HashMap<>();
            nanos.forEach((program, n) -> millis.put(program, n / 1_000_000));
            return millis;
        }

        @Override
        public CommandResult execute(Command command) {
            long start = System.nanoTime();
            try {
                return runner.execute(command);
            } finally {
                nanos.merge(command.argv().getFirst(), System.nanoTime() - start, Long::sum);
            }
        }
    }
}
