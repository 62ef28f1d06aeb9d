package io.periscope.lab.machine;

import io.periscope.model.net.Ipv4Prefix;

/** Address space a topology uses, with the field that asks for it ({@code clusters[0].nodes[1].ip}). */
public record TopologyAddress(Ipv4Prefix prefix, String field) {
}
