package io.periscope.kubernetes.networkpluginsyncer;

import io.periscope.dataplane.election.LeaseTimings;

import java.time.Duration;

/**
 * What the network plugin syncer is told when it starts (flags and the downward API).
 *
 * @param clusterId this cluster's id (its Cluster object's name or {@code cluster_id})
 * @param namespace where the Cluster and Endpoint objects and the syncer's lease live
 * @param identity  this replica's name in the lease (the pod name)
 * @param resync    how often a pass runs when nothing changed
 * @param retry     how soon a pass runs again after OVN-Kubernetes' rows were missing or the database
 *                  could not be reached: neither shows up as a Kubernetes event
 */
public record NetworkPluginSyncerSettings(String clusterId, String namespace, String identity, LeaseTimings timings, Duration resync,
                                          Duration retry) {

    /** The syncer's own lease: one replica programs the database at a time. */
    public static final String LEASE = "submariner-networkplugin-syncer-lock";
}
