package io.periscope.simulator.trace;

/** Where a netfilter decision came from: table, chain, and the rule as {@code iptables-save} prints it. */
public record RuleRef(String table, String chain, String rule) {

    @Override
    public String toString() {
        return table + "/" + chain + ": " + rule;
    }
}
