package io.periscope.plan.netfilter;

import java.util.List;
import java.util.Optional;

/**
 * The chains of one table that Periscope programs on a node: its own chains whole, and the
 * built-in chains holding only its jumps (see {@link Chain}).
 */
public record NetfilterTable(Table table, List<Chain> chains) {

    public NetfilterTable {
        chains = ChainList.of(chains, Chain::name);
        for (Chain chain : chains) {
            // Most chains have no rules placed last: only those are looked for among the built-in
            // names (a node of a large set holds thousands of kube-proxy's chains).
            if (!chain.last().isEmpty() && !table.isBuiltin(chain.name())) {
                throw new IllegalArgumentException(table.iptablesName() + " chain " + chain.name()
                        + " is not built-in: Periscope owns it whole, so its rules have no position among anyone else's");
            }
        }
    }

    public Optional<Chain> chain(String name) {
        return ChainList.find(chains, name, Chain::name);
    }

    /** Chains Periscope owns entirely (everything that is not a built-in chain). */
    public List<Chain> ownedChains() {
        return chains.stream().filter(c -> !table.isBuiltin(c.name())).toList();
    }
}
