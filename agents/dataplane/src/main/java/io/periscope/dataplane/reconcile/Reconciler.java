package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandFailedException;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.diff.DataplaneDiff;
import io.periscope.dataplane.iptables.IptablesRestoreRenderer;
import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.dataplane.watch.KernelWatch;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Level-driven reconcile of one node (or namespace): read what the kernel holds of Periscope's,
 * diff it with the plan, run only the programs that carry out the difference (see
 * {@link DataplaneDiff} for the order). Reconciling again right after changes nothing and runs
 * nothing but the reads.
 *
 * <p>When a program fails, the node is reconciled back to the state read before: iptables
 * transactions that failed changed nothing, and whatever earlier batches did is read back and
 * undone by the same diff machinery, so a failed reconcile leaves the node as it was.
 *
 * <p>Besides what {@link Ownership} gives, a reconcile owns what the last plan it applied named.
 * That is how an entry only the plan made Periscope's (a plain rule in a built-in chain such as
 * seed 004's {@code FORWARD -d <pod CIDR> -i vxlan-tunnel -j ACCEPT}, a route through someone
 * else's device) is removed when the next plan drops it. An agent that restarts forgets its last
 * plan, so such an entry dropped across a restart stays; entries owned by prefix never do.
 *
 * <p>Given a {@link KernelWatch}, a reconcile reads again only what changed since the last one: a
 * reconcile that adds one rule to a 10,000-rule chain then fetches no table and writes one
 * {@code -A} line (see docs/benchmarks.md). The picture it keeps is proven current by the kernel's
 * nf_tables generation number and its route notifications, never assumed.
 */
public final class Reconciler {

    private final CommandRunner runner;
    private final Ownership ownership;
    private final DataplaneReader reader;
    private DataplanePlan lastApplied = DataplanePlan.EMPTY;

    public Reconciler(CommandRunner runner, Ownership ownership) {
        this(runner, ownership, KernelWatch.NONE);
    }

    /**
     * A reconciler that reads again only what {@code watch} says may have changed since its last
     * read (see {@link DataplaneReader}); the watch must be of the namespace the runner's programs run in.
     */
    public Reconciler(CommandRunner runner, Ownership ownership, KernelWatch watch) {
        this(runner, ownership, watch, new NetfilterPicture());
    }

    /**
     * The same, sharing {@code picture} with the other reconcilers of the namespace in this process
     * (see {@link NetfilterPicture}): what one read or committed spares the others a read.
     */
    public Reconciler(CommandRunner runner, Ownership ownership, KernelWatch watch, NetfilterPicture picture) {
        this.runner = runner;
        this.ownership = ownership;
        this.reader = new DataplaneReader(runner, watch, picture);
    }

    /** What a reconcile would change now, without changing anything. */
    public synchronized DataplaneDiff diff(DataplanePlan desired) {
        return diff(desired, false);
    }

    /**
     * The same, against the tables as {@code iptables-save} prints them now (read by this reconciler
     * or by another sharing its picture, at the current generation), never against what this
     * reconciler rendered of its own transactions: a convergence check then proves the kernel holds
     * the plan.
     */
    public synchronized DataplaneDiff diffWithKernel(DataplanePlan desired) {
        return diff(desired, true);
    }

    private DataplaneDiff diff(DataplanePlan desired, boolean kernelTables) {
        Scope scope = scopeFor(desired);
        KernelState current = reader.read(scope, kernelTables);
        return DataplaneDiff.between(current.plan(), current.netfilter(), desired, scope.chainOwnership());
    }

    /**
     * Brings the node to {@code desired}.
     *
     * @throws ReconcileException            when a program failed (the node was restored)
     * @throws IllegalArgumentException      when the plan contradicts itself (nothing was changed)
     * @throws CommandFailedException        when the node could not even be read (nothing was changed)
     */
    public synchronized ReconcileResult reconcile(DataplanePlan desired) {
        Scope scope = scopeFor(desired);
        KernelState before = reader.read(scope);
        DataplaneDiff diff = DataplaneDiff.between(before.plan(), before.netfilter(), desired, scope.chainOwnership());
        if (SkipDeletionsMutation.on()) {
            // Tests only: the fault the deletion scenarios must catch (see SkipDeletionsMutation).
            diff = SkipDeletionsMutation.apply(diff);
        }
        List<Command> commands = ChangeCommands.of(diff, before.netfilter());
        List<Command> applied = new ArrayList<>();
        try {
            for (Command command : commands) {
                runner.run(command);
                applied.add(command);
            }
        } catch (CommandFailedException failure) {
            reader.forget();
            throw rollBack(scope, before, diff, applied, failure);
        }
        lastApplied = desired;
        remember(before, diff, commands);
        return new ReconcileResult(diff, applied);
    }

    /** Tells the reader what the iptables transactions just run left, so the next read need not fetch it. */
    private void remember(KernelState before, DataplaneDiff diff, List<Command> commands) {
        if (reader.provenGeneration().isEmpty()) {
            return;    // nothing proves the tables read current (no watch, legacy iptables): the next read fetches them anyway
        }
        int transactions = (int) commands.stream().filter(c -> c.argv().getFirst().equals("iptables-restore")).count();
        Map<Table, SavedTable> after = new EnumMap<>(Table.class);
        after.putAll(before.netfilter());
        for (Table table : Table.values()) {
            List<DataplaneChange> changes = diff.changes().stream()
                    .filter(c -> c instanceof ChainChange chain && chain.table() == table
                            || c instanceof BuiltinChainChange builtin && builtin.table() == table)
                    .toList();
            if (changes.isEmpty()) {
                continue;
            }
            Optional<SavedTable> outcome = IptablesRestoreRenderer.outcome(table, changes,
                    after.getOrDefault(table, SavedTable.empty(table)));
            if (outcome.isEmpty()) {
                reader.forget();
                return;
            }
            after.put(table, outcome.get());
        }
        reader.committed(after, transactions);
    }

    private Scope scopeFor(DataplanePlan desired) {
        return ownership.scopeFor(desired).including(lastApplied);
    }

    private ReconcileException rollBack(Scope scope, KernelState before, DataplaneDiff attempted, List<Command> applied,
                                        CommandFailedException failure) {
        Scope both = scope.including(before.plan());
        DataplaneDiff restore = DataplaneDiff.NONE;
        try {
            KernelState now = reader.read(both);
            restore = DataplaneDiff.between(now.plan(), now.netfilter(), before.plan(), both.chainOwnership());
            for (Command command : ChangeCommands.of(restore, now.netfilter())) {
                runner.run(command);
            }
        } catch (CommandFailedException rollbackFailure) {
            return new ReconcileException(failure, attempted, applied, restore, Optional.of(rollbackFailure));
        }
        return new ReconcileException(failure, attempted, applied, restore, Optional.empty());
    }
}
