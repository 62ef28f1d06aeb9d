package io.periscope.model.globalnet;

import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.Pod;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;

/**
 * Which active gateway owns a headless pod's global IP under per-gateway egress ownership.
 *
 * <p>A pod on an active gateway's node is owned by that gateway: its packets leave there anyway.
 * Any other pod goes to the gateway with the highest score of a hash of the pod and the gateway's
 * names (rendezvous hashing). That is deterministic (every agent and the simulator agree without
 * talking), spreads pods evenly over the gateways in expectation, and moves only what must move:
 * when a gateway fails only its pods get a new owner, and a pod coming or going moves no other pod.
 * Exactly even round-robin would move pods on every change, breaking their connections.
 *
 * <p>The simulator's {@code trace --fail} plans the cluster without the failed gateways, so it asks
 * {@link #ownerOf(Cluster, Pod)} of the survivors; an agent whose health checker declares gateways
 * down asks {@link #ownerOf(Cluster, Pod, List)} with the gateways it still considers live. Both end
 * in the same choice among the same gateways, so what the agents program is what the simulator
 * predicted.
 */
public final class HeadlessPodOwners {

    private HeadlessPodOwners() {
    }

    /** The owning gateway's node name; empty when the cluster has no active gateway. */
    public static Optional<String> ownerOf(Cluster cluster, Pod pod) {
        return ownerOf(cluster, pod, cluster.activeGateways());
    }

    /**
     * The owner among {@code gateways}, a subset of the cluster's active gateways (those some node
     * considers live); empty when it is empty.
     */
    public static Optional<String> ownerOf(Cluster cluster, Pod pod, List<Node> gateways) {
        if (gateways.stream().anyMatch(g -> g.name().equals(pod.node()))) {
            return Optional.of(pod.node());
        }
        String best = null;
        long bestScore = Long.MIN_VALUE;
        for (Node gateway : gateways) {
            long score = score(cluster.name() + "/" + pod.namespace() + "/" + pod.name(), gateway.name());
            if (best == null || score > bestScore || score == bestScore && gateway.name().compareTo(best) < 0) {
                best = gateway.name();
                bestScore = score;
            }
        }
        return Optional.ofNullable(best);
    }

    private static long score(String pod, String gateway) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest((pod + "\0" + gateway).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, 8).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
