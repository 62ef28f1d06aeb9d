package io.periscope.simulator.netfilter;

/**
 * A rule that did something worth a trace step without ending the traversal (MARK, CONNMARK,
 * CT --notrack) or that ended it with ACCEPT or DROP; {@code mark} is the packet or connection mark
 * after it.
 */
public record Hit(CompiledRule rule, int mark) {
}
