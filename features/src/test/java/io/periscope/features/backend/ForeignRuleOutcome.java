package io.periscope.features.backend;

import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.iptables.IptablesRestoreRenderer;
import io.periscope.dataplane.iptables.IptablesRuleParser;
import io.periscope.dataplane.iptables.NetfilterDiff;
import io.periscope.dataplane.iptables.SavedChain;
import io.periscope.dataplane.iptables.SavedRule;
import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.dataplane.reconcile.Ownership;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The simulator's account of someone else's rule across a change: it keeps no kernel, so it works
 * out what the agents' own reconcile would do to a node that held the previous plan plus that rule
 * (the agents' diff and its iptables-restore outcome, with their ownership), and whether the rule
 * is still there afterwards. A rule in a chain the agents own would be gone.
 */
final class ForeignRuleOutcome {

    private ForeignRuleOutcome() {
    }

    /**
     * @param before    everything the node's table held when the rule was added (every layer)
     * @param periscope the agents' layer of the node's new plan
     * @param rule      as {@code iptables-save} prints it after {@code -A CHAIN}
     */
    static boolean kept(DataplanePlan before, DataplanePlan periscope, Table table, String chain, String rule) {
        SavedTable saved = SavedTable.of(before.table(table).orElse(new NetfilterTable(table, List.of())));
        Set<String> userChains = saved.chainNames().stream().filter(c -> !table.isBuiltin(c)).collect(Collectors.toSet());
        SavedRule foreign = IptablesRuleParser.parse(rule, userChains).<SavedRule>map(r -> new SavedRule.Parsed(r, rule))
                .orElseGet(() -> new SavedRule.Foreign(rule));
        List<SavedChain> chains = new ArrayList<>();
        boolean placed = false;
        for (SavedChain c : saved.chains()) {
            if (c.name().equals(chain)) {
                List<SavedRule> rules = new ArrayList<>(c.rules());
                rules.add(foreign);
                chains.add(new SavedChain(c.name(), rules));
                placed = true;
            } else {
                chains.add(c);
            }
        }
        if (!placed) {
            chains.add(new SavedChain(chain, List.of(foreign)));
        }
        SavedTable withRule = new SavedTable(table, chains);
        NetfilterTable wanted = periscope.table(table).orElse(new NetfilterTable(table, List.of()));
        List<DataplaneChange> changes = NetfilterDiff.between(withRule, wanted, Ownership.submariner().scopeFor(periscope).chainOwnership());
        SavedTable after = IptablesRestoreRenderer.outcome(table, changes, withRule)
                .orElseThrow(() -> new IllegalStateException("the agents' iptables-restore outcome of " + changes + " is unknown"));
        return after.chain(chain).map(c -> c.rules().stream().anyMatch(r -> r.text().equals(rule))).orElse(false);
    }
}
