package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.plan.netfilter.Table;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The iptables tables of one namespace as last read or committed, valid only at the nf_tables
 * generation it names. One {@link DataplaneReader} keeps one of its own; readers of the same
 * namespace in one process (the lab's kube-proxy stand-in and Periscope's agent on one node) may
 * share one, so that what one of them read or committed spares the other an {@code iptables-save}.
 * Sharing changes nothing of what is believed: a picture is used only at the very generation the
 * kernel reports now, so any commit by anyone since (including the other reader) makes it stale.
 *
 * <p>{@code fromKernel} tells a picture parsed from {@code iptables-save} from one rendered from a
 * reconciler's own transactions; a check that must see the kernel itself asks for the former.
 */
public final class NetfilterPicture {

    private Map<Table, SavedTable> tables;
    private long generation;
    private boolean fromKernel;

    /** The tables, when they are known at {@code now} (and were read from the kernel, if {@code kernelOnly}). */
    synchronized Optional<Map<Table, SavedTable>> at(OptionalLong now, boolean kernelOnly) {
        if (tables == null || now.isEmpty() || now.getAsLong() != generation || kernelOnly && !fromKernel) {
            return Optional.empty();
        }
        return Optional.of(tables);
    }

    /** What {@code iptables-save} printed at {@code generation}. */
    synchronized void read(Map<Table, SavedTable> saved, long generation) {
        this.tables = Map.copyOf(saved);
        this.generation = generation;
        this.fromKernel = true;
    }

    /**
     * What {@code transactions} iptables-restore transactions left, rendered by the one who ran them
     * on the tables of generation {@code base}; believed only if the generation is now exactly
     * {@code base + transactions}, so nobody else committed in between.
     *
     * @return whether it was believed (otherwise the picture is forgotten)
     */
    synchronized boolean committed(Map<Table, SavedTable> after, long base, int transactions, OptionalLong now) {
        if (now.isPresent() && now.getAsLong() == base + transactions) {
            this.tables = Map.copyOf(after);
            this.generation = now.getAsLong();
            this.fromKernel = false;
            return true;
        }
        forget();
        return false;
    }

    synchronized void forget() {
        tables = null;
        fromKernel = false;
    }
}
