package io.periscope.lab.layout;

import io.periscope.plan.link.MacAddress;

import java.util.Optional;

/** One end of a veth pair: the namespace it lives in, its name there and, where the plan gives one, its MAC. */
public record VethEnd(String namespace, String name, Optional<MacAddress> mac) {
}
