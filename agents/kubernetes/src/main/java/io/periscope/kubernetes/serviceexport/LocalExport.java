package io.periscope.kubernetes.serviceexport;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ServicePort;

import java.util.List;
import java.util.Optional;

/**
 * One service this cluster exports, as the other clusters must learn it: its type and ports, and
 * the addresses to answer, which under Globalnet are global IPs.
 *
 * @param address a ClusterSetIP service's address (its global IP, else its cluster IP); empty for a headless service
 * @param ready   whether the service has a ready endpoint in this cluster's own EndpointSlices
 * @param pods    a headless service's pods, ready or not; empty for a ClusterSetIP service
 */
record LocalExport(String namespace, String service, boolean headless, List<ServicePort> ports, Optional<Ipv4Address> address,
                   boolean ready, List<Backend> pods) {

    LocalExport {
        ports = List.copyOf(ports);
        pods = List.copyOf(pods);
    }

    /** A pod behind a headless export: its name, the address to answer (its global IP under Globalnet), and its readiness. */
    record Backend(String pod, Ipv4Address address, boolean ready) {
    }
}
