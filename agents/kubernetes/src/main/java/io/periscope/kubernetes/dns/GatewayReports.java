package io.periscope.kubernetes.dns;

import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.GatewayConnection;
import io.periscope.kubernetes.crd.GatewayStatus;
import io.periscope.plan.dns.GatewayHealth;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which clusters' gateways are down, as this cluster's gateway agents report it in their Gateway
 * objects' status (see the gateway agent's health checking). A remote cluster is down when the
 * active gateways report connections to it and not one of them is {@code connected}: every probed
 * way there is failing. This cluster is down itself when it has Gateway objects and none is
 * {@code active}: no tunnel leaves it. A cluster nobody reports on counts as up; one with no
 * Endpoint at all is not in the plan and is left out there.
 */
final class GatewayReports {

    private GatewayReports() {
    }

    static GatewayHealth read(String localCluster, List<Gateway> gateways) {
        List<GatewayStatus> active = gateways.stream().map(Gateway::getStatus)
                .filter(s -> s != null && GatewayStatus.ACTIVE.equals(s.haStatus())).toList();
        Set<String> down = new TreeSet<>();
        if (!gateways.isEmpty() && active.isEmpty()) {
            down.add(localCluster);
        }
        Set<String> reported = new HashSet<>();
        Set<String> connected = new HashSet<>();
        for (GatewayStatus status : active) {
            for (GatewayConnection connection : status.connections()) {
                if (connection.endpoint() == null || connection.endpoint().clusterId() == null) {
                    continue;
                }
                reported.add(connection.endpoint().clusterId());
                if (GatewayConnection.CONNECTED.equals(connection.status())) {
                    connected.add(connection.endpoint().clusterId());
                }
            }
        }
        reported.stream().filter(c -> !connected.contains(c)).forEach(down::add);
        return new GatewayHealth(down);
    }
}
