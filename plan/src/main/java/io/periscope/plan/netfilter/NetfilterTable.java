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
            if (!table.isBuiltin(chain.name()) && !chain.last().isEmpty()) {
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
