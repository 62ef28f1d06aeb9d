package io.periscope.dataplane.change;

import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Table;

import java.util.Optional;

/**
 * A chain Periscope owns is created or refilled ({@code after} present: declared with
 * {@code :NAME - [0:0]}, which creates or flushes it, then all its rules appended) or deleted.
 * {@code before} may equal {@code after} when the kernel's chain holds rules Periscope cannot
 * express: the refill then removes them.
 */
public record ChainChange(Table table, Optional<Chain> before, Optional<Chain> after) implements DataplaneChange {

    public ChainChange {
        DataplaneChange.requireOneSide(before, after, "chain");
        if (before.isPresent() && after.isPresent() && !before.get().name().equals(after.get().name())) {
            throw new IllegalArgumentException("chain change from " + before.get().name() + " to " + after.get().name());
        }
        if (table.isBuiltin(name(before, after))) {
            throw new IllegalArgumentException(name(before, after) + " is a built-in chain of " + table.iptablesName()
                    + "; Periscope only inserts rules there (BuiltinChainChange)");
        }
    }

    public String name() {
        return name(before, after);
    }

    private static String name(Optional<Chain> before, Optional<Chain> after) {
        return after.or(() -> before).orElseThrow().name();
    }

    @Override
    public Tool tool() {
        return Tool.IPTABLES;
    }

    @Override
    public boolean isRemoval() {
        return after.isEmpty();
    }
}
