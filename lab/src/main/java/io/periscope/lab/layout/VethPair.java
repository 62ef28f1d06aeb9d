package io.periscope.lab.layout;

/** A veth pair created directly inside its two namespaces, so neither end ever exists in the machine's own namespace. */
public record VethPair(VethEnd first, VethEnd second) {
}
