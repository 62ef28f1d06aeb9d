package io.periscope.simulator.netfilter;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.RuleRef;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A host's iptables, compiled once: chains by name, jumps resolved, matches turned into predicates,
 * ipsets into membership tests. {@link #run} traverses a built-in chain the way the kernel's
 * {@code ipt_do_table} does: rules in order, user chains on a stack, RETURN back to the caller, and the
 * built-in chain's ACCEPT policy at its end.
 */
public final class Ruleset {

    /** By table and hook ordinal (table * hooks + hook): every packet asks for several per host. */
    private final CompiledChain[] builtins;
    private static final int HOOKS = Hook.values().length;
    /** The host's name, which its {@code statistic} choices name. */
    private final String host;
    /**
     * Where each chain shared with other hosts that has {@code statistic} rules starts in this host's
     * numbering of its rules (see {@link CompiledChain#drawsPerHost}); written while compiling, read only after.
     */
    private final Map<CompiledChain, Integer> serialBases;
    /**
     * The texts of the choices at this host's {@code statistic} rules, with its name, written as paths
     * first take them: kube-proxy has a rule per endpoint on every node, most never taken by the paths a
     * command lists, and a rule of a shared chain is every host's. Traces of one host may run on several
     * threads ({@code serve}).
     */
    private final Map<CompiledRule, CompiledRule.ChoiceTexts> choiceTexts = new ConcurrentHashMap<>();

    private Ruleset(String host, CompiledChain[] builtins, Map<CompiledChain, Integer> serialBases) {
        this.host = host;
        this.builtins = builtins;
        this.serialBases = serialBases;
    }

    /**
     * @param host    the host's name, for error messages
     * @param isLocal whether an address belongs to the host ({@code -m addrtype --dst-type LOCAL})
     * @throws IllegalArgumentException when a rule jumps to a chain that does not exist or chains jump in
     *                                  a loop: iptables-restore would refuse such a table
     */
    public static Ruleset compile(String host, DataplanePlan plan, Predicate<Ipv4Address> isLocal) {
        return compile(host, plan, isLocal, new SharedCompilation());
    }

    /**
     * As {@link #compile(String, DataplanePlan, Predicate)}, sharing with the hosts compiled before it
     * with {@code shared} (and those after) each rule's {@code iptables-save} text, what a trace shows of
     * it, and every chain that compiles alike on each of them (see {@link SharedCompilation}): the hosts
     * of a network share most rules (every node of a cluster has kube-proxy's), and one rule object has
     * one text and, in such a chain, one compiled rule.
     */
    public static Ruleset compile(String host, DataplanePlan plan, Predicate<Ipv4Address> isLocal, SharedCompilation shared) {
        Map<Rule, String> ruleTexts = shared.ruleTexts;
        Map<String, CompiledIpSet> sets = new HashMap<>();
        for (IpSet set : plan.ipsets()) {
            sets.put(set.name(), new CompiledIpSet(set));
        }
        int[] serial = {0};
        Map<CompiledChain, Integer> serialBases = new IdentityHashMap<>();
        CompiledChain[] builtins = new CompiledChain[Table.values().length * HOOKS];
        for (NetfilterTable nt : plan.netfilter()) {
            Table table = nt.table();
            Map<String, Chain> byName = new HashMap<>();
            for (Chain chain : nt.chains()) {
                byName.put(chain.name(), chain);
            }
            // The chains another host compiled before (finished then), and those compiled here to share.
            Map<String, CompiledChain> sharedHere = new HashMap<>();
            Set<CompiledChain> finished = Collections.newSetFromMap(new IdentityHashMap<>());
            // Empty again after each chain: a chain is in it only while the chains it jumps to are looked at.
            Set<String> visiting = new HashSet<>();
            for (Chain chain : nt.chains()) {
                sharedChain(table, chain, byName, sharedHere, visiting, shared, finished);
            }
            Map<String, CompiledChain> chains = new LinkedHashMap<>();
            for (Chain chain : nt.chains()) {
                CompiledChain compiled = sharedHere.get(chain.name());
                chains.put(chain.name(), compiled != null ? compiled : new CompiledChain(table, chain.name()));
            }
            for (Chain chain : nt.chains()) {
                List<Rule> inOrder = chain.inOrder();
                CompiledChain sharedChain = sharedHere.get(chain.name());
                if (sharedChain != null) {
                    // Numbered as if compiled here: a statistic rule's draw reads its serial, and it must
                    // not depend on which chains were shared, here or before it.
                    if (sharedChain.drawsPerHost) {
                        serialBases.put(sharedChain, serial[0]);
                    }
                    serial[0] += inOrder.size();
                    continue;
                }
                CompiledChain compiled = chains.get(chain.name());
                List<CompiledRule> rules = new ArrayList<>();
                for (Rule rule : inOrder) {
                    CompiledRule cr = compileRule(host, table, chain.name(), rule, sets, isLocal, serial[0]++, ruleTexts);
                    if (rule.target() instanceof Target.Jump jump) {
                        cr.jump = chains.get(jump.chain());
                        if (cr.jump == null || table.isBuiltin(jump.chain())) {
                            throw new IllegalArgumentException(host + ": " + table.iptablesName() + " rule '"
                                    + IptablesSyntax.appendLine(chain.name(), rule) + "' jumps to chain " + jump.chain()
                                    + ", which is not a user chain of that table; iptables-restore would refuse it");
                        }
                    }
                    rules.add(cr);
                }
                compiled.rules = rules.toArray(CompiledRule[]::new);
            }
            // Chains finished by an earlier host are left as they are: they and every chain they jump
            // to were proven loop-free, stripped and summarized then, and other hosts trace with them.
            List<CompiledChain> unfinished = new ArrayList<>();
            for (CompiledChain chain : chains.values()) {
                if (!finished.contains(chain)) {
                    unfinished.add(chain);
                }
            }
            // One set of chains proven loop-free for the whole table: each chain is then followed once,
            // where a set per chain followed every chain below it again (kube-proxy's thousands).
            Set<CompiledChain> loopFree = new HashSet<>(finished);
            for (CompiledChain chain : unfinished) {
                checkNoLoop(host, chain, new HashSet<>(), loopFree);
            }
            dropJumpsToEmptyChains(unfinished);
            Set<CompiledChain> known = new HashSet<>(finished);
            for (CompiledChain chain : unfinished) {
                markForks(chain, known);
            }
            Set<CompiledChain> summarized = new HashSet<>(finished);
            for (CompiledChain chain : unfinished) {
                summarizeActions(chain, summarized);
            }
            for (CompiledChain chain : unfinished) {
                chain.walked = walked(chain);
            }
            for (Hook hook : Hook.values()) {
                CompiledChain chain = chains.get(hook.name());
                if (chain != null && table.isBuiltin(hook.name()) && chain.size() > 0) {
                    builtins[slot(table, hook)] = chain;
                }
            }
        }
        return new Ruleset(host, builtins, serialBases);
    }

    /**
     * The compiled chain {@code chain} of this host's {@code table} shares with other hosts (see
     * {@link SharedCompilation}), compiled now when no host compiled it before, or null when it reads the
     * host or jumps to a chain that does not share (or to none, or in a loop: the host's own compilation
     * then says what iptables-restore would refuse). Kept by name in {@code here}; a chain taken from an
     * earlier host is added to {@code finished}.
     */
    private static CompiledChain sharedChain(Table table, Chain chain, Map<String, Chain> byName, Map<String, CompiledChain> here,
                                             Set<String> visiting, SharedCompilation shared, Set<CompiledChain> finished) {
        String name = chain.name();
        if (here.containsKey(name)) {
            return here.get(name);
        }
        if (!visiting.add(name)) {
            return null;
        }
        CompiledChain result = null;
        List<Rule> inOrder = chain.inOrder();
        if (SharedCompilation.readsNoHost(inOrder)) {
            List<CompiledChain> targets = new ArrayList<>();
            boolean alike = true;
            for (Rule rule : inOrder) {
                if (rule.target() instanceof Target.Jump jump) {
                    Chain target = table.isBuiltin(jump.chain()) ? null : byName.get(jump.chain());
                    CompiledChain compiled = target == null ? null
                            : sharedChain(table, target, byName, here, visiting, shared, finished);
                    if (compiled == null) {
                        alike = false;
                        break;
                    }
                    targets.add(compiled);
                }
            }
            if (alike) {
                CompiledChain[] jumps = targets.toArray(CompiledChain[]::new);
                result = shared.find(table, chain, jumps);
                if (result != null) {
                    finished.add(result);
                } else {
                    result = new CompiledChain(table, name);
                    CompiledRule[] rules = new CompiledRule[inOrder.size()];
                    int j = 0;
                    for (int i = 0; i < rules.length; i++) {
                        Rule rule = inOrder.get(i);
                        // No host, sets or addresses: the chain reads none. A statistic rule's serial is
                        // its place in the chain; each host adds where the chain starts in its own tables.
                        rules[i] = compileRule(null, table, name, rule, Map.of(), null, i, shared.ruleTexts);
                        if (rule.target() instanceof Target.Jump) {
                            rules[i].jump = jumps[j++];
                        }
                        result.drawsPerHost |= rules[i].random();
                    }
                    result.rules = rules;
                    shared.keep(table, chain, jumps, result);
                }
            }
        }
        visiting.remove(name);
        here.put(name, result);
        return result;
    }

    private static void checkNoLoop(String host, CompiledChain chain, Set<CompiledChain> path, Set<CompiledChain> done) {
        if (done.contains(chain)) {
            return;
        }
        if (!path.add(chain)) {
            throw new IllegalArgumentException(host + ": " + chain.table().iptablesName() + " chain " + chain.name()
                    + " is reached again through its own jumps; iptables-restore refuses chain loops");
        }
        for (CompiledRule rule : chain.rules) {
            if (rule.jump != null) {
                checkNoLoop(host, rule.jump, path, done);
            }
        }
        path.remove(chain);
        done.add(chain);
    }

    /**
     * A jump to a chain without rules does nothing (jumps leave no step in a trace either), yet every
     * packet would test it: Globalnet's per-kind egress chains are empty in most cluster sets. Removing
     * such jumps can empty their own chain, so this repeats until nothing changes.
     */
    private static void dropJumpsToEmptyChains(java.util.Collection<CompiledChain> chains) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (CompiledChain chain : chains) {
                int kept = 0;
                for (CompiledRule rule : chain.rules) {
                    if (rule.jump == null || rule.jump.rules.length > 0) {
                        kept++;
                    }
                }
                if (kept < chain.rules.length) {
                    chain.rules = java.util.Arrays.stream(chain.rules)
                            .filter(r -> r.jump == null || r.jump.rules.length > 0).toArray(CompiledRule[]::new);
                    changed = true;
                }
            }
        }
    }

    /**
     * Fills {@link CompiledChain#scope}: the union of what its rules that act can match; a jump counts
     * with what its chain acts on, narrowed by the jump's own matches. A return acts on nothing. Also
     * fills {@link CompiledChain#mssKeptUpTo}, for chains whose only actions are TCPMSS targets.
     */
    private static void summarizeActions(CompiledChain chain, Set<CompiledChain> done) {
        if (!done.add(chain)) {
            return;
        }
        ActionScope scope = ActionScope.NOTHING;
        int mssKept = Integer.MAX_VALUE;
        for (CompiledRule rule : chain.rules) {
            if (rule.jump != null) {
                summarizeActions(rule.jump, done);
            }
            if (rule.random()) {
                // A statistic rule leaves a choice behind whenever its other matches hold.
                scope = scope.union(ActionScope.of(rule));
                mssKept = -1;
            } else if (rule.kind == CompiledRule.JUMP) {
                scope = scope.union(rule.jump.scope.narrowedBy(rule));
                mssKept = Math.min(mssKept, rule.jump.mssKeptUpTo);
            } else if (rule.kind != CompiledRule.RETURN && rule.kind != CompiledRule.NOTHING) {
                scope = scope.union(ActionScope.of(rule));
                mssKept = Math.min(mssKept, mssKeptBy(rule));
            }
        }
        chain.scope(scope);
        chain.mssKeptUpTo = mssKept;
    }

    /** The largest MSS {@code rule}, a rule that acts, leaves as it is: see {@link CompiledChain#mssKeptUpTo}. */
    private static int mssKeptBy(CompiledRule rule) {
        return switch (rule.kind) {
            case CompiledRule.SET_MSS -> rule.mssSet;
            // The clamp's value is the route's MTU less 40, known only per packet: only MSS 0 passes for sure.
            case CompiledRule.CLAMP_MSS -> 0;
            default -> -1;
        };
    }

    /** The chain whose rules a traversal of {@code chain} walks: see {@link CompiledChain#walked}. */
    private static CompiledChain walked(CompiledChain chain) {
        if (chain.rules.length == 1) {
            CompiledRule only = chain.rules[0];
            if (only.kind == CompiledRule.JUMP && only.unconditional && !only.random()) {
                return walked(only.jump);
            }
        }
        return chain;
    }

    private static void markForks(CompiledChain chain, Set<CompiledChain> known) {
        if (!known.add(chain)) {
            return;
        }
        for (CompiledRule rule : chain.rules) {
            if (rule.random() && rule.probability() > 0.0 && rule.probability() < 1.0) {
                chain.mayFork = true;
            }
            if (rule.jump != null) {
                markForks(rule.jump, known);
                chain.mayFork |= rule.jump.mayFork;
            }
        }
    }

    /** The built-in chain of {@code table} at {@code hook} when it has rules, else null (nothing to run). */
    public CompiledChain builtin(Table table, Hook hook) {
        return builtins[slot(table, hook)];
    }

    /** Every built-in chain slot, null where the chain has no rules: for {@link NetfilterFootprint}. */
    CompiledChain[] builtins() {
        return builtins;
    }

    /** A number for a table and a hook, fixed for the program's life. */
    private static int slot(Table table, Hook hook) {
        return table.ordinal() * HOOKS + hook.ordinal();
    }

    /**
     * Traverses {@code builtin} with {@code run}; every outcome (one, or more where a {@code statistic}
     * match is followed both ways) is handed to {@code outcomes}, the matching branch first.
     */
    public void run(CompiledChain builtin, TableRun run, Consumer<TableRun> outcomes) {
        run.rules = this;
        run.entered(builtin);
        walk(run, builtin, 0, null, outcomes, false);
    }

    /** Whether {@link #run} can give more than one outcome for {@code run} (else see {@link #runOnce}). */
    public static boolean mayFork(CompiledChain builtin, TableRun run) {
        return run.followAll && builtin.mayFork;
    }

    /** Traverses {@code builtin} when it cannot fork: the one outcome is {@code run} itself, updated. */
    public TableRun runOnce(CompiledChain builtin, TableRun run) {
        run.rules = this;
        run.entered(builtin);
        if (!walkOnce(run, run.observer == null ? builtin.walked : builtin)) {
            run.verdict = Verdict.ACCEPT;
        }
        return run;
    }

    /**
     * {@link #walk} without forks, recursing into jumps instead of keeping a stack of frames: most
     * traversals cannot fork, and they are most of a trace's work.
     *
     * @return true when a rule decided the verdict; false when the chain ended or returned
     */
    private static boolean walkOnce(TableRun run, CompiledChain chain) {
        for (CompiledRule rule : chain.rules) {
            if (!rule.unconditional && !rule.matchesDeterministic(run)) {
                continue;
            }
            // Without forks a statistic match is decided by the flow's draw; a chain that may fork
            // only comes here when the run picks one outcome per flow.
            if (rule.random() && !drawn(run, chain, rule)) {
                continue;
            }
            int kind = rule.kind;
            if (kind == CompiledRule.JUMP) {
                CompiledChain jump = rule.jump;
                // A chain that can do nothing to the packet returns without a step: as for a built-in
                // chain, it is not walked (unless someone is told of every chain entered).
                if (run.observer == null) {
                    if (!jump.mayActOn(run) || jump.keepsMss(run.mss)) {
                        continue;
                    }
                    jump = jump.walked;
                }
                run.entered(jump);
                if (walkOnce(run, jump)) {
                    return true;
                }
            } else if (kind == CompiledRule.RETURN) {
                return false;
            } else if (act(run, rule)) {
                return true;
            }
        }
        return false;
    }

    private static boolean drawn(TableRun run, CompiledChain chain, CompiledRule rule) {
        double p = rule.probability();
        return p >= 1.0 || p > 0.0 && run.draw(chain, rule) < p;
    }

    /**
     * The serial {@code rule} of {@code chain} draws with on this host: its place in the host's
     * numbering of its rules, table after table, chain after chain, as if no chain were shared.
     */
    int serialOf(CompiledChain chain, CompiledRule rule) {
        return chain.drawsPerHost ? serialBases.get(chain) + rule.serial() : rule.serial();
    }

    /** The text of a path's choice at {@code rule}, a {@code statistic} rule of this host's. */
    String choice(CompiledRule rule, boolean matched) {
        return choiceTexts.computeIfAbsent(rule, r -> r.choiceTexts(host)).of(matched);
    }

    /**
     * What a matching rule's target does, jumps and returns aside: true when it ended the traversal
     * (ACCEPT, DROP, a NAT target), with the verdict set; false when the traversal goes on.
     */
    private static boolean act(TableRun run, CompiledRule rule) {
        switch (rule.kind) {
            case CompiledRule.ACCEPT -> {
                run.hit(rule, run.mark);
                run.verdict = Verdict.ACCEPT;
                run.decidedBy = rule;
                return true;
            }
            case CompiledRule.DROP -> {
                run.hit(rule, run.mark);
                run.verdict = Verdict.DROP;
                run.decidedBy = rule;
                return true;
            }
            case CompiledRule.NAT -> {
                run.verdict = Verdict.NAT;
                run.decidedBy = rule;
                return true;
            }
            case CompiledRule.SET_MARK -> {
                run.mark = (run.mark & ~rule.markMaskSet) ^ rule.markValueSet;
                run.hit(rule, run.mark);
            }
            case CompiledRule.SET_CONNMARK -> {
                run.connmark = (run.connmark & ~rule.markMaskSet) ^ rule.markValueSet;
                run.hit(rule, run.connmark);
            }
            case CompiledRule.NO_TRACK -> {
                run.notrack = true;
                run.hit(rule, run.mark);
            }
            case CompiledRule.SET_MSS -> {
                // xt_TCPMSS "never increases MSS, even when setting it"; a packet without an MSS
                // option (mss 0: not a SYN) is not one the simulator's SYNs ever are.
                if (run.mss > rule.mssSet) {
                    run.mss = rule.mssSet;
                    run.hit(rule, run.mss);
                }
            }
            case CompiledRule.CLAMP_MSS -> {
                // xt_TCPMSS's clamp: the smaller of the route's MTU and the MTU of the route back to
                // the source, less 40 bytes of headers; it too never increases the MSS.
                int clamp = run.mss == 0 ? 0 : run.clampMss();
                if (clamp > 0 && run.mss > clamp) {
                    run.mss = clamp;
                    run.hit(rule, run.mss);
                }
            }
            default -> {
                // no target that changes the packet
            }
        }
        return false;
    }

    private record Frame(CompiledChain chain, int index, Frame parent) {
    }

    private static void walk(TableRun run, CompiledChain chain, int index, Frame stack, Consumer<TableRun> outcomes,
                             boolean decided) {
        boolean matchedAlready = decided;
        while (true) {
            if (index >= chain.rules.length) {
                if (stack == null) {
                    run.verdict = Verdict.ACCEPT;
                    outcomes.accept(run);
                    return;
                }
                chain = stack.chain();
                index = stack.index() + 1;
                stack = stack.parent();
                continue;
            }
            CompiledRule rule = chain.rules[index];
            if (!matchedAlready) {
                if (!rule.unconditional && !rule.matchesDeterministic(run)) {
                    index++;
                    continue;
                }
                if (rule.random()) {
                    double p = rule.probability();
                    boolean matched;
                    if (p >= 1.0) {
                        matched = true;
                    } else if (p <= 0.0) {
                        matched = false;
                    } else if (run.followAll) {
                        TableRun taken = run.copy();
                        taken.choose(rule, true);
                        walk(taken, chain, index, stack, outcomes, true);
                        run.choose(rule, false);
                        matched = false;
                    } else {
                        matched = run.draw(chain, rule) < p;
                    }
                    if (!matched) {
                        index++;
                        continue;
                    }
                }
            }
            matchedAlready = false;
            int kind = rule.kind;
            if (kind == CompiledRule.JUMP) {
                run.entered(rule.jump);
                stack = new Frame(chain, index, stack);
                chain = rule.jump;
                index = 0;
            } else if (kind == CompiledRule.RETURN) {
                if (stack == null) {
                    run.verdict = Verdict.ACCEPT;
                    outcomes.accept(run);
                    return;
                }
                chain = stack.chain();
                index = stack.index() + 1;
                stack = stack.parent();
            } else if (act(run, rule)) {
                outcomes.accept(run);
                return;
            } else {
                index++;
            }
        }
    }

    private static CompiledRule compileRule(String host, Table table, String chain, Rule rule, Map<String, CompiledIpSet> sets,
                                            Predicate<Ipv4Address> isLocal, int serial, Map<Rule, String> ruleTexts) {
        CompiledRule.Matches m = new CompiledRule.Matches();
        List<CompiledRule.Condition> others = new ArrayList<>();
        double probability = 1.0;
        boolean random = false;
        for (Match match : rule.matches()) {
            switch (match) {
                case Match.RandomProbability r -> {
                    probability *= r.probability();
                    random = true;
                }
                case Match.Source s when !m.hasSrc -> {
                    m.hasSrc = true;
                    m.srcMask = s.prefix().mask();
                    m.srcValue = s.prefix().network().bits();
                    m.srcNegated = s.negated();
                }
                case Match.Destination d when !m.hasDst -> {
                    m.hasDst = true;
                    m.dstMask = d.prefix().mask();
                    m.dstValue = d.prefix().network().bits();
                    m.dstNegated = d.negated();
                }
                case Match.ProtocolIs p when m.protocol == null -> m.protocol = p.protocol();
                case Match.DestinationPort p when m.dport < 0 -> m.dport = p.port();
                case Match.SourcePort p when m.sport < 0 -> m.sport = p.port();
                case Match.TcpSyn t -> m.tcpSyn = true;
                case Match.InInterface i when m.in == null -> {
                    m.in = CompiledRule.InterfaceName.of(i.name());
                    m.inNegated = i.negated();
                }
                case Match.OutInterface o when m.out == null -> {
                    m.out = CompiledRule.InterfaceName.of(o.name());
                    m.outNegated = o.negated();
                }
                case Match.MarkIs k when !m.hasMark -> {
                    m.hasMark = true;
                    m.markMask = k.mask();
                    m.markValue = k.value();
                    m.markNegated = k.negated();
                }
                case Match.ConnMarkIs k when !m.hasConnmark -> {
                    m.hasConnmark = true;
                    m.connmarkMask = k.mask();
                    m.connmarkValue = k.value();
                }
                case Match.ConnState c when !m.hasCtState -> {
                    m.hasCtState = true;
                    m.ctStates = stateBits(c);
                    m.ctNegated = c.negated();
                }
                default -> others.add(condition(host, match, sets, isLocal));
            }
        }
        RuleRef ref = new RuleRef(table.iptablesName(), chain, ruleTexts.computeIfAbsent(rule, IptablesSyntax::rule));
        return new CompiledRule(rule, ref, m, others.toArray(CompiledRule.Condition[]::new), probability, random, serial);
    }

    private static int stateBits(Match.ConnState c) {
        int bits = 0;
        for (var state : c.states()) {
            bits |= 1 << state.ordinal();
        }
        return bits;
    }

    /** A match as a predicate: for the rare kinds, and for a second match of a kind a rule already has. */
    private static CompiledRule.Condition condition(String host, Match match, Map<String, CompiledIpSet> sets,
                                                    Predicate<Ipv4Address> isLocal) {
        return switch (match) {
            case Match.Source s -> {
                Ipv4Prefix p = s.prefix();
                boolean neg = s.negated();
                yield run -> p.contains(run.packet.src()) != neg;
            }
            case Match.Destination d -> {
                Ipv4Prefix p = d.prefix();
                boolean neg = d.negated();
                yield run -> p.contains(run.packet.dst()) != neg;
            }
            case Match.InInterface i -> {
                CompiledRule.InterfaceName name = CompiledRule.InterfaceName.of(i.name());
                boolean neg = i.negated();
                yield run -> name.matches(run.in) != neg;
            }
            case Match.OutInterface o -> {
                CompiledRule.InterfaceName name = CompiledRule.InterfaceName.of(o.name());
                boolean neg = o.negated();
                yield run -> name.matches(run.out) != neg;
            }
            case Match.ProtocolIs p -> run -> run.packet.protocol() == p.protocol();
            // xt_udp/xt_tcp without options: every port; the rule's -p already names the protocol.
            case Match.ProtocolModule m -> run -> run.packet.protocol().hasPorts();
            case Match.DestinationPort p -> run -> run.packet.protocol().hasPorts() && run.packet.dport() == p.port();
            case Match.SourcePort p -> run -> run.packet.protocol().hasPorts() && run.packet.sport() == p.port();
            case Match.TcpSyn t -> run -> run.packet.protocol() == Protocol.TCP;
            case Match.SetMatch s -> {
                CompiledIpSet set = sets.get(s.setName());
                if (set == null) {
                    throw new IllegalArgumentException(host + ": a rule matches ipset " + s.setName()
                            + ", which the plan does not define; iptables-restore would refuse it");
                }
                boolean source = s.source();
                boolean neg = s.negated();
                yield run -> set.contains(source ? run.packet.src() : run.packet.dst()) != neg;
            }
            case Match.MarkIs m -> {
                int value = m.value();
                int mask = m.mask();
                boolean neg = m.negated();
                yield run -> ((run.mark & mask) == value) != neg;
            }
            case Match.ConnMarkIs m -> run -> (run.connmark & m.mask()) == m.value();
            case Match.ConnState c -> {
                int wanted = stateBits(c);
                boolean neg = c.negated();
                yield run -> ((run.ctStates & wanted) != 0) != neg;
            }
            case Match.DestinationIsLocal l -> {
                boolean neg = l.negated();
                yield run -> isLocal.test(run.packet.dst()) != neg;
            }
            case Match.RandomProbability r -> throw new IllegalStateException("statistic matches are folded into the rule");
        };
    }
}
