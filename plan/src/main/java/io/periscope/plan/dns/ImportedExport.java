package io.periscope.plan.dns;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ServicePort;

import java.util.List;
import java.util.Optional;

/**
 * Another cluster's export of a service as a live cluster learns it: not from the plan (a cluster
 * known only through the broker has no services in the model) but from the ServiceImport and the
 * EndpointSlices Lighthouse's agents write for it. Its addresses are already the ones to answer
 * (global IPs with Globalnet), and only ready pods are listed.
 *
 * @param address a ClusterSetIP service's address; empty for a headless service
 * @param ready   whether a ClusterSetIP service has a ready backend in that cluster (its slice endpoint's
 *                {@code ready} condition); a headless service's readiness is its listed pods
 * @param pods    a headless service's ready pods; empty for a ClusterSetIP service
 */
public record ImportedExport(String cluster, String namespace, String service, boolean headless, Optional<Ipv4Address> address, boolean ready,
                             List<Pod> pods, List<ServicePort> ports) {

    public ImportedExport {
        pods = List.copyOf(pods);
        ports = List.copyOf(ports);
    }

    /** A pod of a headless service: its name (the last label of its DNS name) and the address to answer. */
    public record Pod(String name, Ipv4Address address) {
    }
}
