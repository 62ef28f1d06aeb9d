package io.periscope.simulator.netfilter;

/** The netfilter hooks, named as their built-in chains are. */
public enum Hook {
    PREROUTING, INPUT, FORWARD, OUTPUT, POSTROUTING
}
