package io.periscope.plan.ovn;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;

import java.util.Optional;

/**
 * A logical router static route ({@code ovn-nbctl lr-route-add}): packets whose destination (or,
 * with the {@code src-ip} policy, source) lies in {@code prefix} go to {@code nexthop}, out of
 * {@code outputPort} when given, else out of the port whose network holds the next hop.
 */
public record StaticRoute(Ipv4Prefix prefix, Ipv4Address nexthop, Optional<String> outputPort, Policy policy) {

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
