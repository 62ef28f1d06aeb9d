package io.periscope.plan.netfilter;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Range;

import java.util.OptionalInt;

/** What a rule does when it matches. Each kind renders to the iptables syntax in its comment. */
public sealed interface Target {

    /** {@code -j ACCEPT} */
    record Accept() implements Target {
    }

    /** {@code -j DROP} */
    record Drop() implements Target {
    }

    /** {@code -j RETURN} */
    record Return() implements Target {
    }

    /** {@code -j CHAIN}: traverse the user chain, then continue here unless it decided. */
    record Jump(String chain) implements Target {
    }

    /** {@code -j SNAT --to-source A[-B]}: one address of the range per connection. */
    record Snat(Ipv4Range toSource) implements Target {
    }

    /** {@code -j DNAT --to-destination A[:PORT]} */
    record Dnat(Ipv4Address toAddress, OptionalInt toPort) implements Target {
    }

    /** {@code -j MASQUERADE}: SNAT to the outgoing interface's address. */
    record Masquerade() implements Target {
    }

    /** {@code -j MARK --set-xmark VALUE/MASK} (non-terminating) */
    record SetMark(int value, int mask) implements Target {
    }

    /** {@code -j CONNMARK --set-xmark VALUE/MASK} (non-terminating) */
    record SetConnMark(int value, int mask) implements Target {
    }

    /** {@code -j TCPMSS --clamp-mss-to-pmtu} (non-terminating; only changes SYNs) */
    record ClampMssToPmtu() implements Target {
    }

    /**
     * {@code -j TCPMSS --set-mss N} (non-terminating; only changes SYNs). Despite its name the kernel
     * only lowers a SYN's MSS option to {@code mss}, never raises it.
     */
    record SetMss(int mss) implements Target {
        public SetMss {
            if (mss < 0 || mss > MAX_SET_MSS) {
                throw new IllegalArgumentException("TCPMSS --set-mss takes 0.." + MAX_SET_MSS + ", not " + mss);
            }
        }
    }

    /** The largest {@code --set-mss} iptables takes: 65535 less a 20-byte IPv4 header. */
    int MAX_SET_MSS = 65515;

    /** {@code -j CT --notrack} (raw table; non-terminating) */
    record NoTrack() implements Target {
    }

    /** One instance for the many ACCEPT rules of a large plan (a record without fields: all are equal). */
    Accept ACCEPT = new Accept();

    static Accept accept() {
        return ACCEPT;
    }

    static Jump jump(String chain) {
        return new Jump(chain);
    }
}
