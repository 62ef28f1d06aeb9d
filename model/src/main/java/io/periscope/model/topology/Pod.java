package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Address;

import java.util.Map;

/** A pod. A host-network pod has its node's address and lives in the node's own network namespace. */
public record Pod(String name, String namespace, String node, Ipv4Address ip, Map<String, String> labels, boolean hostNetwork) {

    public Pod {
        labels = Map.copyOf(labels);
    }

    public String qualifiedName() {
        return namespace + "/" + name;
    }
}
