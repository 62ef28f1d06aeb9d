package io.periscope.lab.probe;

import io.periscope.lab.trace.TracePath;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Flow;

import java.util.List;

/**
 * The simulator's side of the comparison: how a flow resolves and every path it can take, in the
 * trace shape of spec section 3. Behind an interface because the lab needs only this much of the
 * simulator, and because the comparison is with the trace contract, not with the simulator's classes.
 */
public interface FlowSimulation {

    /**
     * @throws UnansweredName           when the flow's DNS name gets no answer (a fair question: unreachable)
     * @throws IllegalArgumentException with a message for the user when the flow names nothing that exists
     */
    ProbeTarget resolve(Flow flow);

    /** Nobody answers the flow's DNS name; {@link #getMessage()} says why, without the flow's name. */
    final class UnansweredName extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public UnansweredName(String why) {
            super(why);
        }
    }

    /**
     * Every A answer the source cluster's DNS server can give for the flow's name, one per turn of its
     * round-robin; empty when the name has no address for that cluster (NXDOMAIN, even where the
     * trace follows the address Lighthouse would have answered).
     */
    List<List<Ipv4Address>> answers(Flow flow);

    /** Every simulated path of the flow when its socket uses {@code sourcePort}. */
    List<TracePath> paths(ProbeTarget target, int sourcePort);
}
