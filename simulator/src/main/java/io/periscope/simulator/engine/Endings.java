package io.periscope.simulator.engine;

import io.periscope.model.topology.Disposition;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.Step;

import java.util.Optional;

/**
 * How a branch of the walk comes to its {@link Ending}: the hop it is on is finished and the ending
 * goes to the branch's sink. Every part of the walk (routing, netfilter, NAT, cables, sizes) can end a
 * branch, so this is shared by all of them rather than owned by the walker.
 */
final class Endings {

    private Endings() {
    }

    static void dropped(Visit v, String reason) {
        end(v, Disposition.DROPPED, reason);
    }

    /**
     * Ends the branch on the host it is on; a packet that did not arrive gets a drop step unless a
     * filter rule's drop already says why.
     */
    static void end(Visit v, Disposition disposition, String reason) {
        if (disposition != Disposition.DELIVERED && v.invalidAt != null && reason != null) {
            reason = reason + " (" + ConntrackLayer.invalidNote(v) + ")";
        }
        if (v.record && disposition != Disposition.DELIVERED && !(v.steps.last() instanceof Step.Filter f && !f.accepted())) {
            v.step(new Step.Drop(reason, v.packet));
        }
        finishHop(v, null, false);
        v.sink.accept(ending(v, disposition, reason));
    }

    /**
     * Ends the branch after its hop has sent the packet out of {@code device}: the wire lost it (see
     * {@link Mtu#lostOnTheWire}), so the hop departs and nothing arrives anywhere.
     */
    static void lostAfter(Visit v, String device, String reason) {
        v.step(new Step.Drop(reason, v.packet));
        finishHop(v, device, true);
        v.sink.accept(ending(v, Disposition.DROPPED, reason));
    }

    private static Ending ending(Visit v, Disposition disposition, String reason) {
        return new Ending(disposition, Optional.ofNullable(reason), v.hops.toList(), v.host.id, v.host.index, v.packet, v.origin,
                v.conntrack, v.choices.toList(),
                v.invalidAt == null ? Optional.empty() : Optional.of(ConntrackLayer.invalidNote(v)));
    }

    /**
     * Adds the hop being built to the branch's trail. It leaves by {@code device} (or the tunnel device
     * it went into first) when it {@code departs}; the conntrack layer still open is closed into it.
     */
    static void finishHop(Visit v, String device, boolean departs) {
        String out = v.hopOut != null ? v.hopOut : device;
        finish(v, v.host.device(departs ? out : null), departs);
    }

    /** {@link #finishHop} for a hop that departs by {@code egress}, whose device name is at hand. */
    static void finishHop(Visit v, CompiledHost.Egress egress) {
        finish(v, v.hopOut != null ? v.host.device(v.hopOut) : egress.device(), true);
    }

    private static void finish(Visit v, Optional<String> out, boolean departs) {
        Packet depart = v.hopOut != null ? v.hopDepart : v.packet;
        ConntrackLayer.close(v);
        if (!v.record) {
            return;
        }
        v.hops = v.hops.add(new Hop(v.host.id, v.host.device(v.hopIn), out, v.hopArrive, v.steps.toList(),
                Optional.ofNullable(departs ? depart : null), v.ctLayers.toList()));
    }
}
