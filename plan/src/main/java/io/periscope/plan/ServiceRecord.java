package io.periscope.plan;

import io.periscope.model.net.Ipv4Address;

import java.util.Optional;

/**
 * One answer Lighthouse gives for the cluster set's DNS: an exported service of a cluster (its
 * global IP with Globalnet, its cluster IP without), or a pod of an exported headless service.
 */
public record ServiceRecord(String cluster, String namespace, String service, Optional<String> pod, Ipv4Address address) {
}
