package io.periscope.dataplane.iptables;

import io.periscope.plan.netfilter.Rule;

/**
 * A rule as {@code iptables-save} printed it (the text after {@code -A CHAIN}): either one the model
 * expresses exactly, or someone else's that Periscope keeps as text and never interprets.
 */
public sealed interface SavedRule {

    String text();

    /** A rule that {@link io.periscope.plan.netfilter.IptablesSyntax} prints back to the same text. */
    record Parsed(Rule rule, String text) implements SavedRule {
    }

    /** A rule the model cannot express (another module, a goto, options Periscope never writes). */
    record Foreign(String text) implements SavedRule {
    }
}
