package io.periscope.lab.layout;

import io.periscope.plan.HostId;

/**
 * A port of a switch's bridge: the switch end of the veth whose other end is {@code hostInterface} of
 * {@code host}. {@code mtu} is the largest MTU of the segment's hosts, so that the switch passes every
 * frame a host may send and only the receiving host's own MTU decides, as on a switch configured for
 * the largest frames its hosts use.
 */
public record SwitchPort(String name, HostId host, String hostInterface, int mtu) {
}
