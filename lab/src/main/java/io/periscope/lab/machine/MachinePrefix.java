package io.periscope.lab.machine;

import io.periscope.model.net.Ipv4Prefix;

/**
 * Address space the machine itself uses, with where it was found: an address on one of its
 * interfaces ({@code 192.0.2.2/24 on eth0}) or a route ({@code route 10.8.0.0/16 via 192.0.2.1 dev eth0}).
 */
public record MachinePrefix(Ipv4Prefix prefix, String device, String origin) {
}
