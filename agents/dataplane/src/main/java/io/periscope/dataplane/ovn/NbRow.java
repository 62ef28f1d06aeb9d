package io.periscope.dataplane.ovn;

import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One row of the OVN northbound database, reduced to the columns Periscope programs and with
 * references by name (a router port names its router, a switch its load balancer groups), so that
 * a row read back from the database compares equal to the row the plan asks for.
 */
public sealed interface NbRow {

    /**
     * What makes two rows the same object, so that a change of its other columns is an update: the
     * table and name for named rows, the parent too for ports (a port moved to another parent is a
     * new port); a policy or static route has no name, so the whole row is its identity.
     */
    String key();

    /** The load balancers in front of ClusterIP services ({@code Load_Balancer}); {@code vips} maps {@code ip:port} to the backends, comma-separated. */
    record LoadBalancerRow(String name, String protocol, SortedMap<String, String> vips) implements NbRow {
        public LoadBalancerRow {
            vips = new TreeMap<>(vips);
        }

        @Override
        public String key() {
            return "load_balancer " + name;
        }
    }

    record LoadBalancerGroupRow(String name, SortedSet<String> loadBalancers) implements NbRow {
        public LoadBalancerGroupRow {
            loadBalancers = new TreeSet<>(loadBalancers);
        }

        @Override
        public String key() {
            return "load_balancer_group " + name;
        }
    }

    record SwitchRow(String name, SortedSet<String> loadBalancerGroups) implements NbRow {
        public SwitchRow {
            loadBalancerGroups = new TreeSet<>(loadBalancerGroups);
        }

        @Override
        public String key() {
            return "logical_switch " + name;
        }
    }

    /** {@code type} is empty for a pod or management port, {@code router} or {@code localnet} otherwise. */
    record SwitchPortRow(String logicalSwitch, String name, String type, SortedMap<String, String> options, List<String> addresses)
            implements NbRow {
        public SwitchPortRow {
            options = new TreeMap<>(options);
            addresses = List.copyOf(addresses);
        }

        @Override
        public String key() {
            return "logical_switch_port " + logicalSwitch + "/" + name;
        }
    }

    /** {@code chassis} is {@code options:chassis}, the only option Periscope sets; OVN-Kubernetes' other options are left alone. */
    record RouterRow(String name, Optional<String> chassis, SortedSet<String> loadBalancerGroups) implements NbRow {
        public RouterRow {
            loadBalancerGroups = new TreeSet<>(loadBalancerGroups);
        }

        @Override
        public String key() {
            return "logical_router " + name;
        }
    }

    record RouterPortRow(String router, String name, String mac, List<String> networks) implements NbRow {
        public RouterPortRow {
            networks = List.copyOf(networks);
        }

        @Override
        public String key() {
            return "logical_router_port " + router + "/" + name;
        }
    }

    /**
     * Keyed by router, priority and match, as {@code ovn-nbctl lr-policy-add} identifies a policy: it refuses a second
     * one with the same priority and match, even where the same transaction deleted the first before. So a policy whose
     * next hop moves (upstream's design, where the reroute follows the active gateway's {@code ovn-k8s-mp0}) is updated
     * in place, not replaced.
     */
    record PolicyRow(String router, int priority, String match, String action, List<String> nexthops) implements NbRow {
        public PolicyRow {
            nexthops = List.copyOf(nexthops);
        }

        @Override
        public String key() {
            return "logical_router_policy " + router + " " + priority + " " + match;
        }
    }

    /**
     * {@code prefix} always with its length ({@code 10.0.0.1/32}: OVN stores a host route without it); {@code policy}
     * {@code dst-ip} or {@code src-ip}; {@code submariner} whether it carries {@code external_ids:submariner}, the mark
     * of the routes Submariner's route agent writes on a router it does not own.
     */
    record RouteRow(String router, String prefix, String nexthop, Optional<String> outputPort, String policy, boolean submariner) implements NbRow {
        @Override
        public String key() {
            return "logical_router_static_route " + this;
        }
    }

    /** The table a row lives in, as ovn-nbctl names it. */
    static String table(NbRow row) {
        return row.key().substring(0, row.key().indexOf(' '));
    }
}
