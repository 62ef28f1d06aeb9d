package io.periscope.lab.link;

import java.util.List;

/**
 * Everything of the link layer in one namespace: the devices whose egress it owns (shaped or not) and,
 * in a node's namespace, the rules of its link chains. A switch's namespace has devices and no rules.
 *
 * @param node whether the namespace is a node's (it has a {@code mangle} table the layer writes to)
 */
public record NamespaceLinks(String namespace, boolean node, List<ManagedDevice> devices, List<LinkRule> rules) {

    public NamespaceLinks {
        devices = List.copyOf(devices);
        rules = List.copyOf(rules);
    }

    public long shapedDevices() {
        return devices.stream().filter(d -> d.shaping().isPresent()).count();
    }

    /** Whether the topology asks anything of this namespace. */
    public boolean asksAnything() {
        return shapedDevices() > 0 || !rules.isEmpty();
    }
}
