package io.periscope.plan.netfilter;

/**
 * Conntrack states that {@code -m conntrack --ctstate} can test. NEW / ESTABLISHED / RELATED /
 * INVALID / UNTRACKED describe the connection; SNAT and DNAT say the connection's original
 * direction had its source or destination translated (a reply packet of a DNATed connection still
 * matches DNAT, which is why seed 004 also needs the step-6 note).
 */
public enum CtState {
    NEW, ESTABLISHED, RELATED, INVALID, UNTRACKED, SNAT, DNAT
}
