package io.periscope.simulator.netfilter;

import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the hosts of one network's compilation share: each rule's {@code iptables-save} text, and the
 * chains that compile alike on every host that has them.
 *
 * <p>A plan gives its hosts the same chain objects wherever their rules are the same (kube-proxy's
 * chains on every node, Submariner's on every gateway), and a chain compiles to the same thing on each
 * of them when nothing in it reads the host: no {@code addrtype} match (it asks the host's addresses),
 * no ipset match (the sets are the host's), and every chain it jumps to is shared too, the same objects
 * on each host. Such a chain is compiled once, by the first host that has it, and every later host with
 * the same chain jumping to the same compiled chains takes that one: kube-proxy's service and endpoint
 * chains, for one, are compiled once for all the nodes of a cluster set instead of once per node
 * (docs/benchmarks.md counts them). A {@code statistic} rule reads its host only through its serial
 * and the choice it leaves, which names the host: in a shared chain its serial is its place in the
 * chain, each host adds where the chain starts in its own tables, and the host names itself in the
 * choice ({@link Ruleset#serialOf}, {@link Ruleset#choice}), so draws and choices are the ones the
 * host's own chain would give.
 *
 * <p>A compiled chain is finished (jumps to empty chains dropped, what it acts on summarized) by the
 * table that compiled it, before any later host takes it, and nothing changes it after: sharing it
 * between hosts, and the threads that trace them, needs no lock. Not thread-safe while compiling: one
 * thread compiles a network's hosts with one of these; hosts compiled on first use each have their own.
 */
public final class SharedCompilation {

    final Map<Rule, String> ruleTexts = new IdentityHashMap<>();
    /** Each plan chain's compilations: by table, and by the compiled chains its jumps went to. */
    private final Map<Chain, List<Compiled>> chains = new IdentityHashMap<>();

    private record Compiled(Table table, CompiledChain[] targets, CompiledChain chain) {
    }

    /** Nothing compiled yet: the hosts compiled with it share with those compiled after them. */
    public SharedCompilation() {
    }

    /**
     * Whether a chain of {@code rules} compiles the same on every host, apart from where its jumps go:
     * no rule of it reads anything of the host's but the serials and choices of its {@code statistic}
     * rules, which the host supplies as they are drawn.
     */
    static boolean readsNoHost(List<Rule> rules) {
        for (Rule rule : rules) {
            for (Match match : rule.matches()) {
                if (match instanceof Match.DestinationIsLocal
                        || match instanceof Match.SetMatch) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The chain compiled before for {@code chain} of {@code table} whose jumps go to {@code targets}, in order; null when none was. */
    CompiledChain find(Table table, Chain chain, CompiledChain[] targets) {
        List<Compiled> compiled = chains.get(chain);
        if (compiled != null) {
            for (Compiled c : compiled) {
                if (c.table == table && sameObjects(c.targets, targets)) {
                    return c.chain;
                }
            }
        }
        return null;
    }

    /** Keeps {@code compiled}, the compilation of {@code chain} of {@code table} with jumps to {@code targets}, for the hosts after. */
    void keep(Table table, Chain chain, CompiledChain[] targets, CompiledChain compiled) {
        chains.computeIfAbsent(chain, c -> new ArrayList<>(1)).add(new Compiled(table, targets, compiled));
    }

    private static boolean sameObjects(CompiledChain[] a, CompiledChain[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }
}
