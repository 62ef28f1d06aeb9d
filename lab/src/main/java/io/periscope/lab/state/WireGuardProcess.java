package io.periscope.lab.state;

/**
 * A {@code wireguard-go} that {@code lab up} started inside one of its namespaces: the only
 * processes the lab leaves running, so {@code lab down} stops exactly these (and only while the pid
 * still names a {@code wireguard-go} in that namespace: a pid can be reused after a crash).
 */
public record WireGuardProcess(String namespace, long pid) {
}
