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
 * reported then: no rule in them could have told two packets apart that differ elsewhere.
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
}
