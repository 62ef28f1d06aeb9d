package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.change.IpSetChange;
import io.periscope.dataplane.diff.DataplaneDiff;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Rule;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * A deliberate fault for tests only: a reconciler that never deletes. Turned on by the system
 * property {@value #PROPERTY} (the lab's supervisor is handed it by its launcher), it exists so that
 * the acceptance scenarios about deletion can show they fail when the agents leave things behind:
 * a mutation test, not a mode anyone runs. With it on, every removal in a diff is dropped (chains,
 * ipsets, routes, nexthops, rules, devices, FDB entries), and a chain or an ipset that is refilled
 * keeps what it held besides what the plan wants (a chain is refilled whole, so dropping only
 * removals would still delete a rule gone from a chain that stays).
 */
public final class SkipDeletionsMutation {

    public static final String PROPERTY = "periscope.test.mutation.reconcilerSkipsDeletions";

    private SkipDeletionsMutation() {
    }

    /** Read on every reconcile, so that a test can turn it on and off around the lab it drives. */
    public static boolean on() {
        return Boolean.getBoolean(PROPERTY);
    }

    /** The diff with every deletion left out. */
    public static DataplaneDiff apply(DataplaneDiff diff) {
        List<DataplaneChange> kept = new ArrayList<>();
        for (DataplaneChange change : diff.changes()) {
            if (change.isRemoval()) {
                continue;
            }
            switch (change) {
                case ChainChange c when c.before().isPresent() -> {
                    List<Rule> had = c.before().get().inOrder();
                    List<Rule> wanted = c.after().orElseThrow().inOrder();
                    // Only deletions (or a reorder) left: the faulty reconciler sees nothing to do, and so reports itself converged.
                    if (!had.containsAll(wanted)) {
                        kept.add(new ChainChange(c.table(), c.before(), Optional.of(new Chain(c.name(), union(wanted, had)))));
                    }
                }
                case BuiltinChainChange c -> {
                    if (!c.before().containsAll(c.afterInOrder())) {
                        kept.add(new BuiltinChainChange(c.table(), c.chain(), c.before(),
                                union(c.after(), c.before().stream().filter(r -> !c.last().contains(r)).toList()), c.last()));
                    }
                }
                case IpSetChange c when c.before().isPresent() && c.before().get().type().equals(c.after().orElseThrow().type()) -> {
                    IpSet had = c.before().get();
                    IpSet wanted = c.after().get();
                    if (!had.members().containsAll(wanted.members())) {
                        kept.add(new IpSetChange(c.before(), Optional.of(new IpSet(wanted.name(), wanted.type(),
                                union(wanted.members(), had.members())))));
                    }
                }
                default -> kept.add(change);
            }
        }
        return new DataplaneDiff(kept);
    }

    private static <T> List<T> union(List<T> wanted, List<T> had) {
        LinkedHashSet<T> all = new LinkedHashSet<>(wanted);
        all.addAll(had);
        return List.copyOf(all);
    }
}
