package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.conntrack.ConnTuple;
import io.periscope.simulator.conntrack.Connection;
import io.periscope.simulator.hash.NatAddressChoice;
import io.periscope.simulator.netfilter.CompiledRule;
import io.periscope.simulator.netfilter.Hook;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.RuleRef;
import io.periscope.simulator.trace.Step;

import java.util.Optional;

/**
 * Network address translation as conntrack does it: the nat table's rule decides for the first packet
 * of a connection ({@link #translate}), which the connection then stores; every later packet, in
 * either direction, gets the stored translation ({@link #stored}) without the nat table being
 * consulted. Destination NAT belongs to PREROUTING and OUTPUT, source NAT to POSTROUTING and INPUT.
 */
final class Nat {

    private Nat() {
    }

    /**
     * Applies the translation the packet's connection stores, at a destination hook when
     * {@code destinationHook}, else at a source hook: a reply is un-translated, a later packet of the
     * original direction translated again.
     */
    static void stored(Visit v, boolean destinationHook) {
        Connection c = v.conn;
        Packet p = v.packet;
        if (v.reply) {
            if (destinationHook && c.snat()) {
                v.packet = p.withDestination(c.original().src(), c.original().sport());
                v.step(new Step.Unsnat(v.packet));
            } else if (!destinationHook && c.dnat()) {
                v.packet = p.withSource(c.original().dst(), c.original().dport());
                v.step(new Step.Undnat(v.packet));
            }
            return;
        }
        // A later packet of the original direction: set the translated fields again. This changes
        // nothing when the packet already carries them (a second pass through the same stack).
        if (destinationHook && c.dnat()) {
            Packet q = p.withDestination(c.reply().src(), c.reply().sport());
            if (!q.sameFlow(p)) {
                v.packet = q;
                v.step(new Step.Dnat(Optional.empty(), q));
            }
        } else if (!destinationHook && c.snat()) {
            Packet q = p.withSource(c.reply().dst(), c.reply().dport());
            if (!q.sameFlow(p)) {
                v.packet = q;
                v.step(new Step.Snat(Optional.empty(), q));
            }
        }
    }

    /** Applies a SNAT, DNAT or MASQUERADE rule to a new connection; false when the packet ended. */
    static boolean translate(Visit v, CompiledRule rule, Hook hook) {
        boolean destinationHook = hook == Hook.PREROUTING || hook == Hook.OUTPUT;
        Packet p = v.packet;
        switch (rule.target()) {
            case Target.Dnat d -> {
                if (!destinationHook) {
                    return invalid(v, rule, "DNAT", hook);
                }
                int port = p.protocol().hasPorts() ? d.toPort().orElse(p.dport()) : p.dport();
                dnat(v, rule.optionalRef(), p.withDestination(d.toAddress(), port));
                return true;
            }
            case Target.Snat s -> {
                if (destinationHook) {
                    return invalid(v, rule, "SNAT", hook);
                }
                snat(v, rule, NatAddressChoice.choose(s.toSource(), p.src(), p.dst()));
                return true;
            }
            case Target.Masquerade m -> {
                if (destinationHook) {
                    return invalid(v, rule, "MASQUERADE", hook);
                }
                Ipv4Address address = v.out == null ? null : v.host.firstAddress(v.out);
                if (address == null) {
                    Endings.dropped(v, "MASQUERADE by " + rule.ref() + " on " + v.host.name + ": output device " + v.out
                            + " has no address");
                    return false;
                }
                snat(v, rule, address);
                return true;
            }
            default -> throw new IllegalStateException("not a NAT target: " + rule.target());
        }
    }

    /**
     * The new connection's packet leaves with destination {@code translated}, by {@code ref}: a DNAT
     * rule, or an OVN load balancer, whose translation conntrack stores the same way.
     */
    static void dnat(Visit v, Optional<RuleRef> ref, Packet translated) {
        v.dnatDone |= !translated.sameFlow(v.packet);
        v.packet = translated;
        v.step(new Step.Dnat(ref, translated));
    }

    private static boolean invalid(Visit v, CompiledRule rule, String what, Hook hook) {
        Endings.dropped(v, what + " in " + hook + " is not valid (iptables-restore refuses " + rule.ref() + ") on " + v.host.name);
        return false;
    }

    /**
     * Source NAT keeps the source port unless another connection of this host already expects replies
     * on the resulting tuple; the kernel then picks a random free port from 1024-65535, the simulator
     * the next free one.
     */
    private static void snat(Visit v, CompiledRule rule, Ipv4Address address) {
        Packet p = v.packet;
        int port = p.sport();
        if (p.protocol().hasPorts()) {
            for (int tries = 0; tries < 65536 - 1024; tries++) {
                ConnTuple reply = new ConnTuple(p.dst(), address, p.dport(), port, p.protocol());
                if (!v.conntrack.replyTupleInUse(v.host.index, reply)) {
                    break;
                }
                port = port >= 65535 ? 1024 : port + 1;
            }
        }
        Packet q = p.withSource(address, port);
        v.snatDone |= !q.sameFlow(p);
        v.packet = q;
        v.step(new Step.Snat(rule.optionalRef(), q));
    }
}
