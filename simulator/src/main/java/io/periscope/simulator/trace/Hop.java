package io.periscope.simulator.trace;

import io.periscope.plan.HostId;

import java.util.List;
import java.util.Optional;

/**
 * A packet's visit to one host. {@code in}/{@code arrive} and {@code out}/{@code depart} are the packet
 * as the host's routing sees it: at a VXLAN endpoint that is the inner packet on the VXLAN device, with
 * the outer packet's handling among the steps. {@code in} is empty where the packet was generated,
 * {@code out} and {@code depart} where it ended. {@code conntrack} says what the host's conntrack made
 * of each packet layer it handled.
 */
public record Hop(HostId node, Optional<String> in, Optional<String> out, Packet arrive, List<Step> steps,
                  Optional<Packet> depart, List<ConntrackLookup> conntrack) {

    public Hop {
        steps = List.copyOf(steps);
        conntrack = List.copyOf(conntrack);
    }

    /** A hop whose conntrack nobody recorded (a hop observed outside the simulator). */
    public Hop(HostId node, Optional<String> in, Optional<String> out, Packet arrive, List<Step> steps, Optional<Packet> depart) {
        this(node, in, out, arrive, steps, depart, List.of());
    }
}
