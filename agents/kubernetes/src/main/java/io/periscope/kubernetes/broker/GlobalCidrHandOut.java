package io.periscope.kubernetes.broker;

import io.periscope.model.globalnet.GlobalCidrAllocator;
import io.periscope.model.net.Ipv4Prefix;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the broker settles one cluster's GlobalCIDR (seed 000: "each cluster is given a subnet from
 * this virtual Global Private Network"), decided from what the broker holds and nothing else, so
 * that a restarted sync, or another cluster's, decides the same. Pure.
 *
 * <p>A GlobalCIDR the cluster's Cluster object names (preconfigured) wins over a hand-out and over
 * an earlier record of the cluster, unless it lies outside the Globalnet CIDR or overlaps a block
 * the broker holds for another cluster. A cluster naming none keeps the block the record holds for
 * it, or gets the lowest free block of the cluster size (as the topology file's
 * {@link GlobalCidrAllocator} hands out).
 */
public final class GlobalCidrHandOut {

    /** What the broker sync does about its cluster's GlobalCIDR. */
    public sealed interface Decision {
    }

    /** Globalnet is not enabled on the broker: nothing is handed out or checked, as upstream's broker ignores a given one. */
    public record Off() implements Decision {
    }

    /**
     * The record holds {@code cidr} for the cluster. {@code preconfigured}: its Cluster names it
     * already, so it may be published; otherwise the block is written into its {@code global_cidr} first.
     */
    public record Held(Ipv4Prefix cidr, boolean preconfigured) implements Decision {
    }

    /**
     * {@code cidr} is to be written into the record first (then the next pass finds it {@link Held});
     * {@code preconfigured}: the Cluster names it, rather than getting it as a hand-out.
     */
    public record Record(Ipv4Prefix cidr, boolean preconfigured) implements Decision {
    }

    /** The cluster gets no GlobalCIDR: {@code reason} is the condition's reason, {@code message} says why and what to do. */
    public record Refused(String reason, String message) implements Decision {
    }

    private GlobalCidrHandOut() {
    }

    /**
     * @param info      the broker's settings and record; empty when it has no {@value GlobalnetInfo#CONFIG_MAP_NAME}
     * @param clusterId the cluster deciding
     * @param declared  its Cluster object's {@code global_cidr}
     * @param published the GlobalCIDRs of other clusters' Cluster objects on the broker (by cluster id),
     *                  held as firmly as the record's: a cluster that joined before the record existed still owns its block
     * @param where     names the ConfigMap in messages
     */
    public static Decision decide(Optional<GlobalnetInfo> info, String clusterId, List<String> declared, Map<String, Ipv4Prefix> published,
                                  String where) {
        if (info.isEmpty() || !info.get().enabled()) {
            return new Off();
        }
        GlobalnetInfo broker = info.get();
        List<Held> others = new ArrayList<>();
        broker.clusters().forEach((id, cidr) -> {
            if (!id.equals(clusterId)) {
                others.add(new Held(cidr, false));
            }
        });
        List<String> owners = new ArrayList<>();
        broker.clusters().keySet().stream().filter(id -> !id.equals(clusterId)).forEach(owners::add);
        published.forEach((id, cidr) -> {
            if (!id.equals(clusterId) && !cidr.equals(broker.clusters().get(id))) {
                others.add(new Held(cidr, false));
                owners.add(id);
            }
        });
        Optional<Ipv4Prefix> recorded = Optional.ofNullable(broker.clusters().get(clusterId));

        if (!declared.isEmpty()) {
            if (declared.size() > 1) {
                return new Refused("InvalidGlobalCIDR", "global_cidr names " + declared.size() + " CIDRs " + declared
                        + "; a cluster has one GlobalCIDR: keep one, or remove global_cidr to have one handed out");
            }
            Ipv4Prefix cidr;
            try {
                cidr = Ipv4Prefix.parse(declared.getFirst());
            } catch (IllegalArgumentException e) {
                return new Refused("InvalidGlobalCIDR", "global_cidr '" + declared.getFirst() + "': " + e.getMessage()
                        + "; write it as a.b.c.d/len, or remove global_cidr to have one handed out");
            }
            if (!broker.cidr().contains(cidr)) {
                return new Refused("OutsideGlobalnetCIDR", "global_cidr " + cidr + " lies outside the Globalnet CIDR " + broker.cidr()
                        + " (" + where + "); choose a CIDR inside " + broker.cidr() + ", or remove global_cidr to have one handed out");
            }
            for (int i = 0; i < others.size(); i++) {
                if (others.get(i).cidr().overlaps(cidr)) {
                    return new Refused("Overlaps", "global_cidr " + cidr + " overlaps " + others.get(i).cidr() + ", which the broker holds for cluster "
                            + owners.get(i) + "; choose a CIDR no other cluster holds, or remove global_cidr to have one handed out");
                }
            }
            return recorded.filter(cidr::equals).isPresent() ? new Held(cidr, true) : new Record(cidr, true);
        }
        if (recorded.isPresent()) {
            return new Held(recorded.get(), false);
        }
        Optional<Ipv4Prefix> block = GlobalCidrAllocator.lowestFreeBlock(broker.cidr(), broker.clusterSize(),
                others.stream().map(Held::cidr).toList());
        if (block.isEmpty()) {
            return new Refused("PoolExhausted", "the Globalnet CIDR " + broker.cidr() + " has no free block of " + broker.clusterSize()
                    + " addresses left (held by " + String.join(", ", owners) + "); widen globalnetCidrRange or lower globalnetClusterSize in "
                    + where + ", remove a departed cluster's entry from its clusterinfo, or preconfigure a free global_cidr on this Cluster");
        }
        return new Record(block.get(), false);
    }
}
