package io.periscope.dataplane.watch;

import java.util.OptionalLong;

/**
 * Tells a reconciler which parts of a node's state may have changed since it last read them, so
 * that it reads again only those. Answers err on the side of "changed": a part reported unchanged
 * must really be unchanged, or the reconciler would work from a stale picture.
 */
public interface KernelWatch extends AutoCloseable {

    /** Knows nothing: every part may always have changed, so every reconcile reads everything. */
    KernelWatch NONE = new KernelWatch() {
        @Override
        public OptionalLong netfilterGeneration() {
            return OptionalLong.empty();
        }

        @Override
        public boolean routingChanged() {
            return true;
        }

        @Override
        public void close() {
        }

        @Override
        public String toString() {
            return "no kernel watch";
        }
    };

    /**
     * The namespace's nf_tables generation number: the kernel adds one for every committed
     * nf_tables transaction (each {@code iptables-restore} of the nf_tables backend is one), so two
     * equal answers prove that no rule changed in between. Empty when it cannot be read.
     */
    OptionalLong netfilterGeneration();

    /**
     * Whether links, addresses, routes, policy rules, nexthops, neighbours or FDB entries may have
     * changed since the previous call (or since the watch was opened); asking starts a new period.
     */
    boolean routingChanged();

    @Override
    void close();
}
