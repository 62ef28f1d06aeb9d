package io.periscope.dataplane.iptables;

import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.ChainList;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One table as {@code iptables-save} printed it: every chain, Periscope's or not, with every rule.
 * The reconciler works from this rather than from a {@link NetfilterTable} because it must know
 * where everyone else's rules sit to insert Periscope's above them and never touch them.
 */
public record SavedTable(Table table, List<SavedChain> chains) {

    public SavedTable {
        chains = ChainList.of(chains, SavedChain::name);
    }

    public static SavedTable empty(Table table) {
        return new SavedTable(table, table.builtinChains().stream().map(c -> new SavedChain(c, List.of())).toList());
    }

    /** The table a plan describes, as if the kernel held exactly that and nothing else. */
    public static SavedTable of(NetfilterTable plan) {
        List<SavedChain> chains = new ArrayList<>();
        for (String builtin : plan.table().builtinChains()) {
            if (plan.chain(builtin).isEmpty()) {
                chains.add(new SavedChain(builtin, List.of()));
            }
        }
        for (Chain chain : plan.chains()) {
            chains.add(new SavedChain(chain.name(), chain.inOrder().stream()
                    .<SavedRule>map(r -> new SavedRule.Parsed(r, IptablesSyntax.rule(r))).toList()));
        }
        return new SavedTable(plan.table(), chains);
    }

    public Optional<SavedChain> chain(String name) {
        return ChainList.find(chains, name, SavedChain::name);
    }

    public List<String> chainNames() {
        return chains.stream().map(SavedChain::name).toList();
    }
}
