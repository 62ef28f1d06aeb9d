package io.periscope.model.topology;

import io.periscope.model.net.Ipv4Prefix;

/**
 * Globalnet for the whole cluster set: on or off, the global range the broker hands out from, the
 * size of the block a cluster gets when it names no globalCIDR, and which Globalnet design runs.
 */
public record GlobalnetConfig(boolean enabled, Ipv4Prefix cidr, int clusterSize, GlobalnetMode mode) {

    /** Upstream's broker defaults: 242.0.0.0/8 handed out in blocks of 65536. */
    public static final Ipv4Prefix DEFAULT_CIDR = Ipv4Prefix.parse("242.0.0.0/8");
    public static final int DEFAULT_CLUSTER_SIZE = 65536;

    public static final GlobalnetConfig DISABLED =
            new GlobalnetConfig(false, DEFAULT_CIDR, DEFAULT_CLUSTER_SIZE, GlobalnetMode.V2);
}
