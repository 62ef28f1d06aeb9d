package io.periscope.model.policy;

import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterSet;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The UDP port each cable driver uses on a cluster's gateways. Upstream gives every driver the
 * cluster's NAT-T port, 4500, because upstream runs one driver per cluster set; with a driver per pair
 * (seed 001) one gateway may run two or three of them, and two sockets cannot share a port. So: the
 * vxlan cable keeps 4500 (it is the port the seed documents show); a connection policy's
 * {@code udp-port} option sets the port of the Libreswan NAT-T socket or WireGuard device of the
 * gateways it connects; every other driver takes the lowest free port from 4500 up, Libreswan before
 * WireGuard, skipping the route agent's 4800. All active gateways of a cluster connect to the same
 * clusters, so they share the ports.
 */
public final class CablePorts {

    /** Upstream's NAT-T port, every cable driver's default. */
    public static final int NAT_T_PORT = 4500;
    /** The route agent's {@code vx-submariner} port, which every node, gateways included, already listens on. */
    public static final int ROUTE_AGENT_PORT = 4800;
    /** The option naming a driver's port, as upstream's Endpoint backend config key. */
    public static final String UDP_PORT_OPTION = "udp-port";

    /** An explicit port that cannot be had; {@code policyIndex} is the ClusterConnectionPolicy that asked for it. */
    public record Conflict(int policyIndex, String cluster, String problem, String fix) {
    }

    private final Map<String, Map<CableDriver, Integer>> ports;
    private final List<Conflict> conflicts;

    private CablePorts(Map<String, Map<CableDriver, Integer>> ports, List<Conflict> conflicts) {
        this.ports = ports;
        this.conflicts = conflicts;
    }

    public static CablePorts of(ClusterSet set, ClusterGraph graph) {
        Map<String, Map<CableDriver, Integer>> ports = new HashMap<>();
        Map<String, Conflict> conflicts = new LinkedHashMap<>();
        for (Cluster cluster : set.clusters()) {
            ports.put(cluster.name(), assign(cluster.name(), graph, conflicts));
        }
        return new CablePorts(ports, List.copyOf(conflicts.values()));
    }

    private record Explicit(int port, int policyIndex) {
    }

    /** @param conflicts by what clashes, so that a clash several clusters share is reported once */
    private static Map<CableDriver, Integer> assign(String cluster, ClusterGraph graph, Map<String, Conflict> conflicts) {
        List<CableDriver> used = new ArrayList<>();
        Map<CableDriver, Explicit> explicit = new EnumMap<>(CableDriver.class);
        for (String peer : graph.peersOf(cluster)) {
            ClusterGraph.Connection connection = graph.connection(cluster, peer).orElseThrow();
            CableDriver driver = connection.cableDriver().name();
            if (!used.contains(driver)) {
                used.add(driver);
            }
            OptionalInt port = explicitPort(connection.cableDriver());
            if (port.isEmpty() || driver == CableDriver.VXLAN) {
                continue;
            }
            Explicit mine = new Explicit(port.getAsInt(), connection.connectionPolicyIndex().orElse(-1));
            Explicit first = explicit.putIfAbsent(driver, mine);
            if (first != null && first.port() != mine.port()) {
                Explicit early = first.policyIndex() <= mine.policyIndex() ? first : mine;
                Explicit late = early == first ? mine : first;
                conflicts.putIfAbsent(driver + " " + early.policyIndex() + " " + late.policyIndex(), new Conflict(late.policyIndex(), cluster,
                        "cluster '" + cluster + "' has one " + driver.yamlName() + " port for all its connections, but this policy asks for "
                                + late.port() + " while connectionPolicies[" + early.policyIndex() + "] asks for " + early.port(),
                        "give both policies the same udp-port, or drop one"));
            }
        }
        Map<CableDriver, Integer> assigned = new EnumMap<>(CableDriver.class);
        Map<Integer, CableDriver> taken = new HashMap<>();
        if (used.contains(CableDriver.VXLAN)) {
            assigned.put(CableDriver.VXLAN, NAT_T_PORT);
            taken.put(NAT_T_PORT, CableDriver.VXLAN);
        }
        for (CableDriver driver : List.of(CableDriver.LIBRESWAN, CableDriver.WIREGUARD)) {
            Explicit wanted = explicit.get(driver);
            if (wanted == null || !used.contains(driver)) {
                continue;
            }
            if (wanted.port() == ROUTE_AGENT_PORT) {
                conflicts.putIfAbsent(driver + " " + wanted.policyIndex() + " route agent", new Conflict(wanted.policyIndex(), cluster,
                        "udp-port " + ROUTE_AGENT_PORT + " is the route agent's vx-submariner port on every node",
                        "pick another udp-port"));
                continue;
            }
            CableDriver holder = taken.putIfAbsent(wanted.port(), driver);
            if (holder != null) {
                conflicts.putIfAbsent(driver + " " + wanted.policyIndex() + " " + wanted.port() + " " + holder, new Conflict(
                        wanted.policyIndex(), cluster, "udp-port " + wanted.port() + " is already the " + holder.yamlName()
                        + " cable's port on cluster " + cluster + "'s gateways",
                        "pick another udp-port; a gateway needs one UDP port per cable driver"));
                continue;
            }
            assigned.put(driver, wanted.port());
        }
        for (CableDriver driver : List.of(CableDriver.LIBRESWAN, CableDriver.WIREGUARD)) {
            if (!used.contains(driver) || assigned.containsKey(driver)) {
                continue;
            }
            int port = NAT_T_PORT;
            while (taken.containsKey(port) || port == ROUTE_AGENT_PORT) {
                port++;
            }
            taken.put(port, driver);
            assigned.put(driver, port);
        }
        return assigned;
    }

    /** The {@code udp-port} option when it is a port number (the validator reports any other value). */
    public static OptionalInt explicitPort(CableDriverSpec spec) {
        String text = spec.options().get(UDP_PORT_OPTION);
        if (text == null) {
            return OptionalInt.empty();
        }
        try {
            int port = Integer.parseInt(text.trim());
            return port >= 1 && port <= 65535 ? OptionalInt.of(port) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** The port {@code driver} uses on {@code cluster}'s gateways; NAT-T's when the cluster does not use it. */
    public int port(String cluster, CableDriver driver) {
        return ports.getOrDefault(cluster, Map.of()).getOrDefault(driver, NAT_T_PORT);
    }

    /** Every port a cluster's gateways listen on for cables, in ascending order. */
    public List<Integer> ports(String cluster) {
        return ports.getOrDefault(cluster, Map.of()).values().stream().distinct().sorted().toList();
    }

    public List<Conflict> conflicts() {
        return conflicts;
    }
}
