package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.GlobalEgressIP;

import java.util.List;

/**
 * What a {@link GlobalIpPool} answers to a request. Running out of addresses is an ordinary outcome
 * of IPAM (upstream reports it in the object's status), so it is a value, not an exception.
 */
public sealed interface AllocationResult {

    /** The addresses now held by the requester: ascending for a block, in the caller's order for a reservation. */
    record Allocated(List<Ipv4Address> addresses) implements AllocationResult {
        public Allocated {
            addresses = List.copyOf(addresses);
        }
    }

    /**
     * Nothing was allocated and the pool is unchanged.
     *
     * @param requester the object that asked, as the caller named it (e.g. {@code GlobalEgressIP ns1/db-pods})
     * @param reason    why, with the numbers involved
     */
    record Failed(String requester, String reason) implements AllocationResult {

        /** A sentence naming the requester, for a status message or a report. */
        public String describe() {
            return requester + " " + reason;
        }
    }
}
