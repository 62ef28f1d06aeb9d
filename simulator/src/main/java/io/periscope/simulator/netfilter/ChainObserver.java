package io.periscope.simulator.netfilter;

import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Table;
import io.periscope.simulator.trace.Packet;

/**
 * Told of every netfilter chain a trace enters (built-in or by a jump), on any host, forward and reply,
 * with the packet as it was on entering: the rules a trace's outcome can depend on are in these chains.
 * A chain may be reported more than once.
 * A built-in chain none of whose rules can match the packet (by protocol, destination port, destination
 * prefix or input interface) is not traversed at all, so neither it nor the chains it jumps to are
 * reported then, unless the observer {@link #seesEveryChain sees every chain}: no rule in them could have
 * told two packets apart that differ elsewhere, but one of them could match a packet with another
 * destination.
 */
@FunctionalInterface
public interface ChainObserver {

    void entered(HostId host, Table table, String chain, Packet packet);

    /**
     * True when being told of {@code chain} does nothing, whatever the packet: a walk that keeps the
     * chains it entered, to tell them again where its outcome is reused, need not keep this one. A
     * check of an observer that reads only a few of a plan's chains, cheaper than its own look-up
     * (the reachability matrix's is told of some hundred million chains in a big check).
     */
    default boolean ignores(HostId host, Table table, String chain) {
        return false;
    }

    /**
     * True when this observer must be told of every built-in chain a packet reaches, including those
     * skipped because none of their rules can match it: a rule naming an address the packet does not
     * carry matters to an observer that asks whether a packet with that address would be treated alike.
     */
    default boolean seesEveryChain() {
        return false;
    }
}
