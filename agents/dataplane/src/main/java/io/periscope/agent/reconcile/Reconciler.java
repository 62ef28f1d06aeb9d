package io.periscope.agent.reconcile;

import io.periscope.agent.command.Command;
import io.periscope.agent.command.CommandFailedException;
import io.periscope.agent.command.CommandRunner;
import io.periscope.agent.diff.DataplaneDiff;
import io.periscope.plan.DataplanePlan;

import java.util.ArrayList;
import java.util.List;
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
 */
public final class Reconciler {

    private final CommandRunner runner;
    private final Ownership ownership;
    private final DataplaneReader reader;
    private DataplanePlan lastApplied = DataplanePlan.EMPTY;

    public Reconciler(CommandRunner runner, Ownership ownership) {
        this.runner = runner;
        this.ownership = ownership;
        this.reader = new DataplaneReader(runner);
    }

    /** What a reconcile would change now, without changing anything. */
    public synchronized DataplaneDiff diff(DataplanePlan desired) {
        Scope scope = scopeFor(desired);
        KernelState current = reader.read(scope);
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
        List<Command> commands = ChangeCommands.of(diff, before.netfilter());
        List<Command> applied = new ArrayList<>();
        try {
            for (Command command : commands) {
                runner.run(command);
                applied.add(command);
            }
        } catch (CommandFailedException failure) {
            throw rollBack(scope, before, diff, applied, failure);
        }
        lastApplied = desired;
        return new ReconcileResult(diff, applied);
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
