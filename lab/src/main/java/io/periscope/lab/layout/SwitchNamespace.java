package io.periscope.lab.layout;

import java.util.List;

/**
 * A namespace holding nothing but one bridge: a BRIDGE segment of the plan (a cluster's underlay, or
 * the WAN between gateways). Keeping each bridge in a namespace of its own keeps the hosts'
 * namespaces exactly as planned and keeps every lab frame away from the machine's own network.
 */
public record SwitchNamespace(String segment, String namespace, List<SwitchPort> ports) {

    /** The bridge device's name inside the switch namespace. */
    public static final String BRIDGE = "br0";

    public SwitchNamespace {
        ports = List.copyOf(ports);
    }
}
