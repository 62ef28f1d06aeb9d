package io.periscope.simulator.engine;

import io.periscope.model.topology.Disposition;
import io.periscope.plan.HostId;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;

import java.util.List;
import java.util.Optional;

/**
 * How one branch of a packet's walk ended.
 *
 * @param host      where it ended (for a delivery, the host whose socket got it)
 * @param hostIndex the same host's index in the compiled network, for sending its answer
 * @param packet    the packet as it was at the end
 * @param origin    the packet as its sender's socket sent it (source address selected, nothing translated)
 * @param conntrack every host's conntrack entries along the branch, for the reply to find
 * @param choices   the alternatives this branch took, in order
 * @param invalid   where conntrack found the packet INVALID and let it pass untranslated, when it did
 */
public record Ending(Disposition disposition, Optional<String> reason, List<Hop> hops, HostId host, int hostIndex, Packet packet,
                     Packet origin, ConntrackState conntrack, List<String> choices, Optional<String> invalid) {
}
