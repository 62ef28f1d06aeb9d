package io.periscope.kubernetes.globalnet;

import io.periscope.dataplane.election.LeaseTimings;

import java.time.Duration;

/**
 * @param clusterId  this cluster's id (its Cluster object's name or {@code cluster_id})
 * @param namespace  where the Cluster object and the controller's lease live
 * @param identity   this replica's name in the lease (the pod name)
 * @param resync     how often a pass runs when nothing changed
 */
public record GlobalnetSettings(String clusterId, String namespace, String identity, LeaseTimings timings, Duration resync) {

    public static final String LEASE = "submariner-globalnet-lock";
}
