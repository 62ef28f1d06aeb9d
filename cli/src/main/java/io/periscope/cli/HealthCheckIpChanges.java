package io.periscope.cli;

import io.periscope.model.endpoint.Endpoint;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ClusterSetPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code trace --fail} says about the gateways' health-check global IPs (their Endpoints'
 * {@code healthCheckIP}, with Globalnet each gateway's own address): a gateway that took over
 * publishes an address of its own, and the failed gateway's stays held by its Gateway object,
 * answered by nobody. Remote gateways' health checks ping the new address.
 *
 * @param takeovers one per gateway that publishes an Endpoint only after the failure
 */
record HealthCheckIpChanges(List<Takeover> takeovers) {

    HealthCheckIpChanges {
        takeovers = List.copyOf(takeovers);
    }

    /**
     * @param gateway  CLUSTER/NODE of the gateway that took over
     * @param address  its own health-check address, empty when it has none (no Globalnet, or the pool is full)
     * @param replaced the gateways whose Endpoints went, each with the address it published
     */
    record Takeover(String gateway, Optional<Ipv4Address> address, List<Replaced> replaced) {
        Takeover {
            replaced = List.copyOf(replaced);
        }
    }

    record Replaced(String gateway, Optional<Ipv4Address> address) {
    }

    /** Without Globalnet a gateway's healthCheckIP is its CNI address, which nobody holds: nothing to say. */
    static HealthCheckIpChanges of(ClusterSetPlan healthy, ClusterSetPlan failed) {
        List<Takeover> takeovers = new ArrayList<>();
        if (!failed.clusterSet().globalnet().enabled()) {
            return new HealthCheckIpChanges(takeovers);
        }
        for (Endpoint after : failed.endpoints()) {
            if (publishes(healthy, after.clusterId(), after.hostname())) {
                continue;
            }
            List<Replaced> replaced = healthy.endpoints().stream()
                    .filter(before -> before.clusterId().equals(after.clusterId()) && !publishes(failed, before.clusterId(), before.hostname()))
                    .map(before -> new Replaced(before.clusterId() + "/" + before.hostname(), before.healthCheckIp()))
                    .toList();
            takeovers.add(new Takeover(after.clusterId() + "/" + after.hostname(), after.healthCheckIp(), replaced));
        }
        return new HealthCheckIpChanges(takeovers);
    }

    private static boolean publishes(ClusterSetPlan plan, String cluster, String gateway) {
        return plan.endpoints().stream().anyMatch(e -> e.clusterId().equals(cluster) && e.hostname().equals(gateway));
    }

    boolean isEmpty() {
        return takeovers.isEmpty();
    }

    /** The section for a terminal, ending with a newline; empty when no gateway took over. */
    String toText() {
        if (takeovers.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder("gateways' health-check addresses (Endpoint healthCheckIP):\n");
        for (Takeover takeover : takeovers) {
            text.append("  ").append(takeover.gateway()).append(" took over: ")
                    .append(takeover.address().map(a -> a + ", its own").orElse("none"));
            for (Replaced old : takeover.replaced()) {
                text.append("; ").append(old.gateway()).append(old.address()
                        .map(a -> "'s " + a + " stays held by its Gateway object, answered by nobody")
                        .orElse(" published none"));
            }
            text.append('\n');
        }
        return text.toString();
    }
}
