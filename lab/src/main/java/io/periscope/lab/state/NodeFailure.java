package io.periscope.lab.state;

import java.util.List;

/**
 * What {@code lab fail} changed on one node, recorded before it changes anything so that
 * {@code lab heal} (or a fail that went wrong half-way) undoes exactly that.
 *
 * @param node          {@code cluster/node}
 * @param mode          {@code crash}, {@code blackhole} or {@code agent-stop}
 * @param namespace     the node's namespace
 * @param links         the links set down (the far end of each of the node's veths), for {@code crash}
 * @param nftTable      the nftables table that drops the node's packets, for {@code blackhole} (empty otherwise)
 * @param agentsStopped whether the supervisor was told to stop the node's agents
 */
public record NodeFailure(String node, String mode, String namespace, List<DownedLink> links, String nftTable,
                          boolean agentsStopped) {

    public NodeFailure {
        links = links == null ? List.of() : List.copyOf(links);
        nftTable = nftTable == null ? "" : nftTable;
    }

    /**
     * One link set down: a device of a namespace, and where that namespace's routes were saved first
     * (setting a device down deletes the routes through it; heal restores them from there).
     */
    public record DownedLink(String namespace, String device, String savedRoutes) {
    }
}
