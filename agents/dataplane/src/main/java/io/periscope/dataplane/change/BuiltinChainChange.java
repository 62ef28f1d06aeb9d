package io.periscope.dataplane.change;

import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * Periscope's rules in a built-in chain (PREROUTING, FORWARD, ...) go from {@code before} (the
 * ones found, in kernel order) to {@code after}, which end up first in the chain in plan order, and
 * {@code last}, which end up below them in plan order, appended when missing and otherwise left where
 * they are ({@link io.periscope.plan.netfilter.HookPosition#LAST}). Everyone else's rules in the chain
 * stay, in their order, after Periscope's first ones. {@code before} may equal {@code after} when
 * Periscope's rules are present but no longer at the top.
 */
public record BuiltinChainChange(Table table, String chain, List<Rule> before, List<Rule> after, List<Rule> last)
        implements DataplaneChange {

    public BuiltinChainChange {
        before = List.copyOf(before);
        after = List.copyOf(after);
        last = List.copyOf(last);
        if (!table.isBuiltin(chain)) {
            throw new IllegalArgumentException(chain + " is not a built-in chain of " + table.iptablesName());
        }
    }

    /** A change whose rules all go first. */
    public BuiltinChainChange(Table table, String chain, List<Rule> before, List<Rule> after) {
        this(table, chain, before, after, List.of());
    }

    /** Periscope's rules as the change leaves them, in kernel order: the first ones, then the last. */
    public List<Rule> afterInOrder() {
        List<Rule> all = new ArrayList<>(after);
        all.addAll(last);
        return List.copyOf(all);
    }

    @Override
    public Tool tool() {
        return Tool.IPTABLES;
    }

    @Override
    public boolean isRemoval() {
        return after.isEmpty() && last.isEmpty();
    }
}
