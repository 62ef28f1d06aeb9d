package io.periscope.simulator.netfilter;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * How many compiled chains and rules a network's hosts hold: summed over the hosts (each host's chains
 * reachable from its built-in chains, and their rules), and as distinct objects, which is what the
 * compilation made and keeps. The two differ by what {@link SharedCompilation} shares.
 */
public record NetfilterFootprint(long hosts, long chains, long distinctChains, long rules, long distinctRules) {

    /** The footprint of {@code rulesets}, one per host. */
    public static NetfilterFootprint of(Iterable<Ruleset> rulesets) {
        long hosts = 0;
        long chains = 0;
        long rules = 0;
        Set<CompiledChain> distinctChains = identitySet();
        Set<CompiledRule> distinctRules = identitySet();
        for (Ruleset ruleset : rulesets) {
            hosts++;
            Set<CompiledChain> reached = identitySet();
            Deque<CompiledChain> toVisit = new ArrayDeque<>();
            for (CompiledChain builtin : ruleset.builtins()) {
                if (builtin != null && reached.add(builtin)) {
                    toVisit.add(builtin);
                }
            }
            while (!toVisit.isEmpty()) {
                CompiledChain chain = toVisit.pop();
                chains++;
                distinctChains.add(chain);
                for (CompiledRule rule : chain.rules) {
                    rules++;
                    distinctRules.add(rule);
                    if (rule.jump != null && reached.add(rule.jump)) {
                        toVisit.add(rule.jump);
                    }
                }
            }
        }
        return new NetfilterFootprint(hosts, chains, distinctChains.size(), rules, distinctRules.size());
    }

    private static <T> Set<T> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }
}
