package io.periscope.simulator.link;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.cable.IpsecConnection;

import java.util.ArrayList;
import java.util.List;

/**
 * Every host's Libreswan connections as the kernel holds them once routed: XFRM policies. Outbound, a
 * packet from a connection's left subnet to its right subnet is encrypted by that connection's SA (the
 * most specific policy wins, as Libreswan gives narrower selectors the higher priority); inbound, ESP
 * is accepted only for an SA the receiver has the other end of, and only for packets its inbound
 * policy covers.
 */
public final class IpsecPolicies {

    private final List<List<IpsecConnection>> byHost = new ArrayList<>();

    /** @param plans each host's effective plan, by host index */
    public IpsecPolicies(List<DataplanePlan> plans) {
        for (DataplanePlan plan : plans) {
            byHost.add(plan.ipsecConnections());
        }
    }

    public boolean hasAny(int host) {
        return !byHost.get(host).isEmpty();
    }

    /** The connection whose outbound policy takes a packet from {@code source} to {@code destination}, or null. */
    public IpsecConnection outbound(int host, Ipv4Address source, Ipv4Address destination) {
        IpsecConnection best = null;
        for (IpsecConnection c : byHost.get(host)) {
            if (c.coversOutbound(source, destination) && (best == null || specificity(c) > specificity(best))) {
                best = c;
            }
        }
        return best;
    }

    private static int specificity(IpsecConnection c) {
        return c.leftSubnet().length() + c.rightSubnet().length();
    }

    /** The host's end of the SA {@code sender} encrypted with, or null when IKE could not have negotiated it. */
    public IpsecConnection peerOf(int host, IpsecConnection sender) {
        for (IpsecConnection c : byHost.get(host)) {
            if (c.mirrors(sender)) {
                return c;
            }
        }
        return null;
    }

    /** Whether the host's IKE daemon has a NAT-T socket on UDP {@code port} (where ESP-in-UDP is taken in). */
    public boolean listens(int host, int port) {
        for (IpsecConnection c : byHost.get(host)) {
            if (c.leftIkePort() == port) {
                return true;
            }
        }
        return false;
    }
}
