package io.periscope.plan.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.Optional;

/**
 * A logical router static route ({@code ovn-nbctl lr-route-add}): packets whose destination (or,
 * with the {@code src-ip} policy, source) lies in {@code prefix} go to {@code nexthop}, out of
 * {@code outputPort} when given, else out of the port whose network holds the next hop.
 *
 * @param submariner whether Submariner's route agent writes it on a router OVN-Kubernetes owns, and
 *                   so marks it as its own with {@code external_ids:submariner} (upstream's gateway
 *                   route controller, {@code ovn_logical_routes.go}): the mark is how its agents find
 *                   their routes again among OVN-Kubernetes' on {@code ovn_cluster_router}
 */
public record StaticRoute(Ipv4Prefix prefix, Ipv4Address nexthop, Optional<String> outputPort, Policy policy, boolean submariner) {

    /** A route of the router's owner: OVN-Kubernetes', or one on a router that is Submariner's own. */
    public StaticRoute(Ipv4Prefix prefix, Ipv4Address nexthop, Optional<String> outputPort, Policy policy) {
        this(prefix, nexthop, outputPort, policy, false);
    }

    public enum Policy {
        DST_IP("dst-ip"), SRC_IP("src-ip");

        private final String ovnName;

        Policy(String ovnName) {
            this.ovnName = ovnName;
        }

        public String ovnName() {
            return ovnName;
        }
    }

    public static StaticRoute toward(Ipv4Prefix prefix, Ipv4Address nexthop, String outputPort) {
        return new StaticRoute(prefix, nexthop, Optional.of(outputPort), Policy.DST_IP);
    }

    /** As {@code ovn-nbctl lr-route-list} prints it: prefix, next hop, policy and output port. */
    public String text() {
        return prefix + " " + nexthop + " " + policy.ovnName() + outputPort.map(p -> " " + p).orElse("");
    }
}
