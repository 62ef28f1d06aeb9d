package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.GlobalEgressIP;

import java.util.List;

/**
 * Why a GlobalEgressIP got none of its per-gateway slices. Under per-gateway egress ownership an
 * object gets a slice of its {@code numberOfIPs} for every active gateway or none at all (a gateway
 * without its slice would SNAT the object's pods to nothing), so what the user must know is the
 * object's whole need, not the one slice that happened to come last. The topology file's IPAM and
 * the Kubernetes controller both word it here, so {@code check} and the object's status agree.
 *
 * @param requester     the object, e.g. {@code GlobalEgressIP ns1/ns-egressip}
 * @param perGateway    the object's {@code numberOfIPs}: one slice's size
 * @param gateways      the active gateways, one slice each
 * @param pool          the cluster's global CIDR
 * @param free          addresses free in the pool with none of the object's slices held
 * @param unplaced      the gateway whose slice did not fit
 */
public record SliceShortfall(String requester, int perGateway, List<String> gateways, Ipv4Prefix pool, int free, String unplaced) {

    public SliceShortfall {
        gateways = List.copyOf(gateways);
    }

    /** Addresses the object needs in all: a slice per active gateway. */
    public int needed() {
        return perGateway * gateways.size();
    }

    /** How many addresses the pool lacks; zero when there are enough but no contiguous run is long enough. */
    public int missing() {
        return Math.max(0, needed() - free);
    }

    /** The status message, e.g. {@code ... needs 9 global IPs, ... has only 6 free (3 missing); it holds none of them}. */
    public String describe() {
        String need = requester + " needs " + needed() + " global IPs, a slice of " + perGateway + " for each of its " + gateways.size()
                + " active gateways (" + String.join(", ", gateways) + "), but the pool " + pool;
        String lack = missing() > 0
                ? " has only " + free + " free (" + missing() + " missing)"
                : " has " + free + " free and no contiguous run of " + perGateway + " left for the slice of gateway " + unplaced;
        return need + lack + "; it holds none of them until all fit";
    }
}
