package io.periscope.plan.netfilter;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Protocol;

import java.util.Set;

/** A condition of an iptables rule. Each kind renders to the iptables syntax shown in its comment. */
public sealed interface Match {

    /** {@code [!] -s CIDR} */
    record Source(Ipv4Prefix prefix, boolean negated) implements Match {
        public Source(Ipv4Prefix prefix) {
            this(prefix, false);
        }
    }

    /** {@code [!] -d CIDR} */
    record Destination(Ipv4Prefix prefix, boolean negated) implements Match {
        public Destination(Ipv4Prefix prefix) {
            this(prefix, false);
        }
    }

    /** {@code [!] -i IFACE} */
    record InInterface(String name, boolean negated) implements Match {
        public InInterface(String name) {
            this(name, false);
        }
    }

    /** {@code [!] -o IFACE} */
    record OutInterface(String name, boolean negated) implements Match {
        public OutInterface(String name) {
            this(name, false);
        }
    }

    /** {@code -p tcp|udp|icmp} */
    record ProtocolIs(Protocol protocol) implements Match {
    }

    /**
     * {@code -m tcp|udp} with no option: the protocol's own match module, loaded bare. Upstream's
     * packet filter loads it after every {@code -p tcp}/{@code -p udp} (ToRuleSpec), and
     * {@code iptables-save} prints it back, so the rule a node shows is not the one {@code -p} alone
     * makes. It matches every packet of the protocol (the full port range); the kernel refuses it
     * without the same {@code -p}. A rule with a port or flag option has the module anyway, so
     * {@link Rule} drops this match there.
     */
    record ProtocolModule() implements Match {
    }

    /** {@code -m tcp|udp --dport N} (the protocol match must precede it) */
    record DestinationPort(int port) implements Match {
    }

    /** {@code -m tcp|udp --sport N} */
    record SourcePort(int port) implements Match {
    }

    /**
     * {@code -m tcp --tcp-flags SYN,RST SYN}: TCP SYNs, the only packets TCPMSS may change (the kernel
     * refuses a TCPMSS rule without this match).
     */
    record TcpSyn() implements Match {
    }

    /** {@code -m set [!] --match-set NAME src|dst} */
    record SetMatch(String setName, boolean source, boolean negated) implements Match {
    }

    /** {@code -m mark [!] --mark VALUE/MASK} */
    record MarkIs(int value, int mask, boolean negated) implements Match {
    }

    /** {@code -m connmark --mark VALUE/MASK} */
    record ConnMarkIs(int value, int mask) implements Match {
    }

    /** {@code -m conntrack [!] --ctstate A,B} */
    record ConnState(Set<CtState> states, boolean negated) implements Match {
        public ConnState {
            states = Set.copyOf(states);
        }
    }

    /** {@code -m addrtype [!] --dst-type LOCAL} */
    record DestinationIsLocal(boolean negated) implements Match {
    }

    /**
     * {@code -m statistic --mode random --probability P}: how kube-proxy spreads a service over its
     * endpoints. The simulator follows both outcomes as separate branches.
     */
    record RandomProbability(double probability) implements Match {

        /**
         * The kernel keeps the probability as a 31-bit fraction, so a rule read back from it carries
         * that value; rounding here makes the rule written and the rule read back equal records.
         */
        public RandomProbability {
            if (!(probability >= 0 && probability <= 1)) {
                throw new IllegalArgumentException("probability " + probability + " is outside 0..1");
            }
            probability = Math.round(probability * 0x1p31) / 0x1p31;
        }
    }
}
