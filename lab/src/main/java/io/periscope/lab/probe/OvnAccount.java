package io.periscope.lab.probe;

import io.periscope.lab.capture.CapturedFrame;
import io.periscope.lab.ovn.OvnTraceText;

import java.util.List;

/**
 * OVN's own account of a packet inside its logical network: the logical routers it crossed, each
 * with the port it came in and went out by, for a packet that entered at an {@link OvnPort} with
 * the headers a capture saw there. The captures see a packet go into OVN and come out of it; what
 * happened in between, which the simulator shows as logical hops, only OVN can say.
 */
public interface OvnAccount {

    /**
     * @param reply the packet answers a connection OVN's conntrack already holds (a TCP SYN-ACK, a
     *              UDP answer), rather than opening one
     * @throws IllegalStateException when OVN cannot be asked (its database is gone, the trace failed)
     */
    Crossing cross(OvnPort entry, CapturedFrame frame, boolean reply);

    /**
     * Empties the connection tables of OVN's datapaths, as the probe empties the kernels' before a
     * flow: OVS's userspace datapath keeps its own conntrack, where a connection of an earlier
     * probe with the same addresses and ports would meet this probe's first packet and drop it.
     */
    default void forgetConnections() {
    }

    /**
     * @param routers the routers in the order the packet crossed them
     * @param account what OVN said, as it said it, for a reader looking into a difference
     */
    record Crossing(List<OvnTraceText.RouterVisit> routers, String account) {

        public Crossing {
            routers = List.copyOf(routers);
        }
    }

    /** For a lab without OVN clusters: no packet enters one. */
    OvnAccount NONE = (entry, frame, reply) -> {
        throw new IllegalStateException("the lab has no OVN cluster to account for a packet entering " + entry.port());
    };
}
