package io.periscope.dns;

import io.periscope.plan.dns.DnsAnswer;
import io.periscope.plan.dns.Rotation;
import io.periscope.plan.dns.ServiceDiscovery;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one cluster's DNS server answers from: the resolver for the current plan and gateway health,
 * replaced whole when either changes (so a query sees one consistent state), and the round-robin
 * position of each service, which survives replacements.
 */
public final class ClustersetZone {

    private final Optional<String> askingCluster;
    private volatile ServiceDiscovery discovery;
    private final ConcurrentHashMap<String, AtomicInteger> turns = new ConcurrentHashMap<>();
    // The resolver only asks for exported services, so the map holds at most one counter per service.
    private final Rotation rotation = (service, candidates) -> turns.computeIfAbsent(service, k -> new AtomicInteger())
            .getAndIncrement();

    /** @param askingCluster the cluster whose pods this server answers; empty for a client outside every cluster */
    public ClustersetZone(Optional<String> askingCluster, ServiceDiscovery discovery) {
        this.askingCluster = askingCluster;
        this.discovery = discovery;
    }

    public void replace(ServiceDiscovery next) {
        this.discovery = next;
    }

    public ServiceDiscovery discovery() {
        return discovery;
    }

    public Optional<String> askingCluster() {
        return askingCluster;
    }

    DnsAnswer answer(String name, int type) {
        return discovery.answer(name, type, askingCluster, rotation);
    }
}
