package io.periscope.dataplane.iptables;

import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The changes that turn one table of the kernel into what the plan wants, touching only what
 * {@link ChainOwnership} says is Periscope's: owned chains that differ are refilled, missing ones
 * created, no longer wanted ones deleted (an owned chain whose rules differ only by the order of rules no
 * packet can tell apart is in place: {@link RuleOrderEquivalence}); in each built-in chain Periscope's first rules end up first, in
 * plan order, with everyone else's rules after them in their own order, and its last rules below.
 */
public final class NetfilterDiff {

    private NetfilterDiff() {
    }

    public static List<DataplaneChange> between(SavedTable current, NetfilterTable desired, ChainOwnership ownership) {
        Table table = desired.table();
        if (current.table() != table) {
            throw new IllegalArgumentException("cannot compare table " + current.table().iptablesName() + " with " + table.iptablesName());
        }
        checkJumps(current, desired, ownership);
        List<DataplaneChange> changes = new ArrayList<>();
        for (Chain chain : desired.ownedChains()) {
            Optional<SavedChain> found = current.chain(chain.name());
            if (found.isEmpty() || found.get().hasForeignRules() || !RuleOrderEquivalence.sameEffect(found.get().parsedRules(), chain.rules())) {
                changes.add(new ChainChange(table, found.map(c -> new Chain(c.name(), c.parsedRules())), Optional.of(chain)));
            }
        }
        for (String builtin : table.builtinChains()) {
            Chain wanted = desired.chain(builtin).orElse(Chain.empty(builtin));
            List<SavedRule> found = current.chain(builtin).map(SavedChain::rules).orElse(List.of());
            List<Rule> ours = found.stream()
                    .filter(r -> r instanceof SavedRule.Parsed p && ownership.ownsBuiltinRule(builtin, p.rule(), desired))
                    .map(r -> ((SavedRule.Parsed) r).rule()).toList();
            if (!inPlace(found, wanted, ours)) {
                changes.add(new BuiltinChainChange(table, builtin, ours, wanted.rules(), wanted.last()));
            }
        }
        for (SavedChain chain : current.chains()) {
            if (!table.isBuiltin(chain.name()) && desired.chain(chain.name()).isEmpty() && ownership.ownsChain(chain.name(), desired)) {
                changes.add(new ChainChange(table, Optional.of(new Chain(chain.name(), chain.parsedRules())), Optional.empty()));
            }
        }
        return changes;
    }

    /**
     * Periscope's first rules are exactly the first ones of the chain, in plan order, and its last
     * rules follow somewhere below them, in plan order, with nothing else of Periscope's anywhere.
     * Where below does not matter: upstream's {@code AppendUnique} leaves a rule it finds where it is,
     * even with rules appended after it since, and so do the agents.
     */
    private static boolean inPlace(List<SavedRule> found, Chain wanted, List<Rule> ours) {
        if (!ours.equals(wanted.inOrder()) || found.size() < wanted.rules().size()) {
            return false;
        }
        for (int i = 0; i < wanted.rules().size(); i++) {
            if (!(found.get(i) instanceof SavedRule.Parsed p) || !p.rule().equals(wanted.rules().get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A jump must go to a chain that exists after the transaction: one the plan declares, or someone
     * else's that the kernel has. A jump to an undeclared chain with Periscope's prefix would point
     * at a chain the same transaction deletes.
     */
    private static void checkJumps(SavedTable current, NetfilterTable desired, ChainOwnership ownership) {
        for (Chain chain : desired.chains()) {
            for (Rule rule : chain.rules()) {
                if (!(rule.target() instanceof Target.Jump jump)) {
                    continue;
                }
                String to = jump.chain();
                String where = "the plan's " + desired.table().iptablesName() + " rule in " + chain.name() + " jumps to " + to;
                if (desired.table().isBuiltin(to)) {
                    throw new IllegalArgumentException(where + ", a built-in chain; iptables cannot jump to built-in chains");
                }
                if (desired.chain(to).isPresent()) {
                    continue;
                }
                if (ownership.ownsChain(to, desired)) {
                    throw new IllegalArgumentException(where + ", which is Periscope's but the plan does not declare it;"
                            + " declare the chain in the plan (it may be empty)");
                }
                if (current.chain(to).isEmpty()) {
                    throw new IllegalArgumentException(where + ", which neither the plan declares nor the kernel has");
                }
            }
        }
    }
}
