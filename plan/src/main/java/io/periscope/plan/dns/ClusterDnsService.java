package io.periscope.plan.dns;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Service;

import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The address of a cluster's DNS Service (kube-dns), which every pod's {@code resolv.conf} names.
 * The topology file does not say it, so it is chosen as kubeadm chooses it: the 10th address of the
 * first service CIDR ({@code 10.96.0.10} for {@code 10.96.0.0/16}). That address is the kube-dns
 * Service's from the cluster's first moment, so on a real cluster no other Service can hold it; a
 * file whose service holds it therefore describes a cluster whose installer put DNS elsewhere, and
 * the DNS Service takes the next address no service of the file holds (upwards, then the addresses
 * below the 10th). It never collides with a clusterIP of the file.
 */
public record ClusterDnsService(String cluster, Ipv4Address address) {

    /** kubeadm's choice: the 10th address of the service CIDR. */
    public static final int KUBEADM_OFFSET = 10;

    /**
     * @return empty when the first service CIDR has no address left that no service holds (a /30 full
     *         of services, say)
     */
    public static Optional<ClusterDnsService> of(Cluster cluster) {
        if (cluster.serviceCidrs().isEmpty()) {
            return Optional.empty();
        }
        Ipv4Prefix cidr = cluster.serviceCidrs().getFirst();
        Set<Ipv4Address> held = cluster.services().stream().map(Service::clusterIp).flatMap(Optional::stream).collect(Collectors.toSet());
        // The network address (offset 0) is never a Service's; for a /32 it is the only address there is.
        long size = cidr.size();
        for (long offset = KUBEADM_OFFSET; offset < size; offset++) {
            Ipv4Address candidate = cidr.first().plus(offset);
            if (!held.contains(candidate)) {
                return Optional.of(new ClusterDnsService(cluster.name(), candidate));
            }
        }
        for (long offset = 1; offset < Math.min(KUBEADM_OFFSET, size); offset++) {
            Ipv4Address candidate = cidr.first().plus(offset);
            if (!held.contains(candidate)) {
                return Optional.of(new ClusterDnsService(cluster.name(), candidate));
            }
        }
        return Optional.empty();
    }
}
