package io.periscope.plan;

import java.util.Optional;

/**
 * A network namespace of the cluster set: a node ({@code cluster/node}) or a pod
 * ({@code cluster/namespace/pod}); this text is the {@code node} field of a trace hop.
 */
public record HostId(String cluster, Optional<String> namespace, String name) implements Comparable<HostId> {

    public static HostId node(String cluster, String node) {
        return new HostId(cluster, Optional.empty(), node);
    }

    public static HostId pod(String cluster, String namespace, String pod) {
        return new HostId(cluster, Optional.of(namespace), pod);
    }

    public boolean isPod() {
        return namespace.isPresent();
    }

    @Override
    public int compareTo(HostId o) {
        // Clusters, then nodes before pods, then names: the order people read a plan in. The ids of
        // one cluster (and of one namespace) share their strings: the same string needs no comparing.
        int c = cluster == o.cluster ? 0 : cluster.compareTo(o.cluster);
        if (c != 0) {
            return c;
        }
        if (namespace.isPresent() != o.namespace.isPresent()) {
            return namespace.isPresent() ? 1 : -1;
        }
        if (namespace.isPresent() && namespace != o.namespace) {
            c = namespace.get().compareTo(o.namespace.get());
            if (c != 0) {
                return c;
            }
        }
        return name.compareTo(o.name);
    }

    // Written out, with the values a record derives: the derived methods dispatch through a method
    // handle the JIT does not inline, and a plan's hosts are looked up by id all the time.
    @Override
    public boolean equals(Object other) {
        return other instanceof HostId id && name.equals(id.name) && cluster.equals(id.cluster) && namespace.equals(id.namespace);
    }

    @Override
    public int hashCode() {
        return (cluster.hashCode() * 31 + namespace.hashCode()) * 31 + name.hashCode();
    }

    @Override
    public String toString() {
        return namespace.map(ns -> cluster + "/" + ns + "/" + name).orElse(cluster + "/" + name);
    }
}
