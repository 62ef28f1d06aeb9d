package io.periscope.lab.dns;

import io.periscope.dns.ClustersetZone;
import io.periscope.dataplane.health.HealthChecker;
import io.periscope.dataplane.health.HealthSettings;
import io.periscope.dataplane.health.HealthTarget;
import io.periscope.dataplane.health.HealthView;
import io.periscope.dataplane.health.IcmpEchoProber;
import io.periscope.dataplane.health.PeerHealth;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabLayout;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Node;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.dns.GatewayHealth;
import io.periscope.plan.dns.ServiceDiscovery;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Every cluster's DNS server as the lab's supervisor runs them: one {@link NamespaceDnsServer} per
 * cluster ({@link ClusterDns}), each answering for its cluster from the plan and from what health
 * checking says about the gateways, its zone replaced whole ({@link ClustersetZone#replace}) as soon
 * as that changes.
 *
 * <p>Gateway health as Lighthouse learns it, from the gateways' own health checking (Submariner's
 * gateway pings each remote endpoint and reports the connection in its Gateway status): each active
 * gateway of a cluster probes the active gateways of every cluster the policy connects it to, at
 * their endpoint addresses; the server's node probes its own cluster's active gateways. A remote
 * cluster is down for the asking cluster when none of its active gateways answers any of the asking
 * cluster's live gateways; the asking cluster's own gateways are down when none answers the server's
 * node. Probes are the agents' ({@link HealthChecker}, ICMP echo every 40 ms, down after 3 losses),
 * with a hold-down of {@value #HOLD_DOWN_MILLIS} ms rather than the agents' 2 s: a gateway back
 * comes back into the answers within a second, and a flap still shorter than that does not.
 *
 * <p>A single-active cluster's standby gateways are probed too, and by the same rule: the verdicts
 * count for the gateways the current plan makes active. When a lease changes hands the supervisor
 * hands the new plan over ({@link #follow}), and the answers follow the new active gateway at once,
 * as Lighthouse follows the Gateway status of whichever gateway is active. When {@code lab apply}
 * changes the policies, the supervisor hands the new plan over with {@link #adopt}.
 */
public final class ClusterDnsServers implements AutoCloseable {

    static final long HOLD_DOWN_MILLIS = 500;
    public static final HealthSettings SETTINGS = new HealthSettings(Duration.ofMillis(40), 3, Duration.ofMillis(HOLD_DOWN_MILLIS));

    private record Served(ClusterDns dns, ClustersetZone zone, NamespaceDnsServer server) {
    }

    /** The plan the answers are made from; the supervisor replaces it when a lease changes hands. */
    private ClusterSetPlan plan;
    private final Consumer<String> log;
    private final Map<String, Served> served = new LinkedHashMap<>();
    /** Per cluster: the checker on the DNS server's node, watching the cluster's own active gateways. */
    private final Map<String, HealthChecker> own = new LinkedHashMap<>();
    /** Per active gateway ({@code cluster/node}): the checker in its namespace, watching remote active gateways. */
    private final Map<String, HealthChecker> remote = new LinkedHashMap<>();
    private final Map<String, GatewayHealth> current = new LinkedHashMap<>();
    private final Map<String, Long> replacements = new LinkedHashMap<>();
    private LabLayout layout;
    private boolean closed;

    private final HealthSettings settings;

    private ClusterDnsServers(ClusterSetPlan plan, Consumer<String> log, HealthSettings settings) {
        this.plan = plan;
        this.log = log;
        this.settings = settings;
    }

    /** Starts every cluster's server and its health checking; the servers answer from the plan until a verdict changes. */
    public static ClusterDnsServers start(ClusterSetPlan plan, LabLayout layout, Consumer<String> log) {
        return start(plan, layout, log, SETTINGS);
    }

    /** The same, probing with {@code settings} (slower and more patient where the links delay and lose the probes). */
    public static ClusterDnsServers start(ClusterSetPlan plan, LabLayout layout, Consumer<String> log, HealthSettings settings) {
        ClusterDnsServers servers = new ClusterDnsServers(plan, log, settings);
        try {
            servers.startAll(layout);
        } catch (RuntimeException e) {
            servers.close();
            throw e;
        }
        return servers;
    }

    private void startAll(LabLayout layout) {
        this.layout = layout;
        for (ClusterDns dns : ClusterDns.of(plan.clusterSet(), layout)) {
            ClustersetZone zone = new ClustersetZone(Optional.of(dns.cluster()), ServiceDiscovery.of(plan));
            NamespaceDnsServer server = NamespaceDnsServer.start(dns.server().namespace(), dns.serverAddress(), ClusterDns.SERVER_PORT, zone);
            served.put(dns.cluster(), new Served(dns, zone, server));
            current.put(dns.cluster(), GatewayHealth.ALL_UP);
            replacements.put(dns.cluster(), 0L);
            log.accept("dns: " + dns.cluster() + "'s server listens on " + dns.server().host() + " " + dns.serverAddress() + ":"
                    + ClusterDns.SERVER_PORT + ", behind the DNS Service " + dns.serviceAddress() + ":" + ClusterDns.PORT
                    + " of every pod's resolv.conf");
        }
        for (Cluster cluster : plan.clusterSet().clusters()) {
            Served s = served.get(cluster.name());
            if (s == null) {
                continue;
            }
            List<HealthTarget> ownTargets = gatewayNodes(cluster).stream()
                    .map(g -> new HealthTarget(cluster.name() + "/" + g.name(), g.ip(), Set.of(g.ip()))).toList();
            own.put(cluster.name(), checker(s.dns().server().namespace(), ownTargets));
        }
        remote.putAll(remoteCheckers(plan));
        own.values().forEach(HealthChecker::start);
        remote.values().forEach(HealthChecker::start);
    }

    /** Per active gateway: a checker of the active gateways of every cluster the policy of {@code planned} connects it to. */
    private Map<String, HealthChecker> remoteCheckers(ClusterSetPlan planned) {
        Map<String, HealthChecker> checkers = new LinkedHashMap<>();
        ClusterGraph graph = ClusterGraph.of(planned.clusterSet());
        for (Cluster cluster : planned.clusterSet().clusters()) {
            if (!served.containsKey(cluster.name())) {
                continue;
            }
            List<HealthTarget> remoteTargets = new ArrayList<>();
            for (Cluster other : planned.clusterSet().clusters()) {
                if (!other.name().equals(cluster.name()) && graph.connected(cluster.name(), other.name())) {
                    gatewayNodes(other).forEach(g -> remoteTargets.add(
                            new HealthTarget(other.name() + "/" + g.name(), g.endpointIp(), Set.of(g.endpointIp()))));
                }
            }
            for (Node gateway : gatewayNodes(cluster)) {
                Optional<HostNamespace> namespace = layout.host(HostId.node(cluster.name(), gateway.name()));
                namespace.ifPresent(n -> checkers.put(cluster.name() + "/" + gateway.name(), checker(n.namespace(), remoteTargets)));
            }
        }
        return checkers;
    }

    /** Active and standby: a standby becomes active when it takes its cluster's lease. */
    private static List<Node> gatewayNodes(Cluster cluster) {
        return cluster.gateways();
    }

    /**
     * Answers from {@code next} from now on: the same cluster set with other active gateways (a lease
     * changed hands). Every cluster's view is recomputed against the new active gateways.
     */
    public synchronized void follow(ClusterSetPlan next) {
        if (closed || next == plan) {
            return;
        }
        plan = next;
        refresh();
    }

    /**
     * Answers from {@code next} from now on: the same clusters, hosts and addresses under other
     * policies ({@code lab apply}). Every cluster's zone is replaced at once, whether or not the
     * gateways' health changed, so a cluster the new policy keeps apart leaves the asking cluster's
     * answers (and one it now connects enters them) with the next query; the gateways' health
     * checking follows the new cables (a cluster nobody has a cable to is watched by nobody).
     */
    public void adopt(ClusterSetPlan next) {
        Map<String, HealthChecker> replaced;
        synchronized (this) {
            if (closed) {
                return;
            }
            plan = next;
            replaced = new LinkedHashMap<>(remote);
            remote.clear();
            remote.putAll(remoteCheckers(next));
            for (Served s : served.values()) {
                String cluster = s.dns().cluster();
                GatewayHealth health = health(cluster);
                current.put(cluster, health);
                replacements.merge(cluster, 1L, Long::sum);
                s.zone().replace(ServiceDiscovery.of(plan, health));
            }
            log.accept("dns: every cluster's answers now follow the applied topology");
        }
        // Outside the lock: a closing checker may be reporting to refresh(), which takes it.
        replaced.values().forEach(HealthChecker::close);
        synchronized (this) {
            if (!closed) {
                remote.values().forEach(HealthChecker::start);
            }
        }
    }

    private HealthChecker checker(String namespace, List<HealthTarget> targets) {
        return new HealthChecker(targets, IcmpEchoProber.openIn(namespace), settings, Clock.systemUTC(), view -> refresh());
    }

    /**
     * Recomputes every cluster's view of the gateways and replaces the zone of each cluster whose view
     * changed. Called by the checkers on every change of verdict, and by the supervisor's tick.
     */
    public synchronized void refresh() {
        if (closed) {
            return;
        }
        for (Served s : served.values()) {
            String cluster = s.dns().cluster();
            GatewayHealth health = health(cluster);
            if (!health.equals(current.get(cluster))) {
                current.put(cluster, health);
                replacements.merge(cluster, 1L, Long::sum);
                s.zone().replace(ServiceDiscovery.of(plan, health));
                log.accept("dns: " + cluster + "'s answers now leave out the gateways of "
                        + (health.clustersDown().isEmpty() ? "no cluster" : String.join(", ", new TreeSet<>(health.clustersDown()))));
            }
        }
    }

    private GatewayHealth health(String cluster) {
        Cluster asking = plan.clusterSet().cluster(cluster).orElseThrow();
        Set<String> down = new TreeSet<>();
        List<String> liveOwn = asking.activeGateways().stream().map(g -> cluster + "/" + g.name())
                .filter(name -> up(own.get(cluster), name)).toList();
        if (!asking.activeGateways().isEmpty() && liveOwn.isEmpty()) {
            down.add(cluster);
        }
        for (Cluster other : plan.clusterSet().clusters()) {
            if (other.name().equals(cluster) || other.activeGateways().isEmpty()) {
                continue;
            }
            boolean reached = other.activeGateways().stream().map(g -> other.name() + "/" + g.name())
                    .anyMatch(target -> liveOwn.stream().map(remote::get).anyMatch(checker -> watches(checker, target) && up(checker, target)));
            boolean watched = liveOwn.stream().map(remote::get).anyMatch(checker -> other.activeGateways().stream()
                    .anyMatch(g -> watches(checker, other.name() + "/" + g.name())));
            // A cluster nobody watches (the policy keeps it apart) is the resolver's to leave out, not health's.
            if (watched && !reached) {
                down.add(other.name());
            }
        }
        return new GatewayHealth(down);
    }

    private static boolean watches(HealthChecker checker, String gateway) {
        return checker != null && checker.view().peers().keySet().stream().anyMatch(t -> t.gateway().equals(gateway));
    }

    /** Whether {@code checker} considers {@code gateway} up; a gateway it does not watch counts as up. */
    private static boolean up(HealthChecker checker, String gateway) {
        if (checker == null) {
            return true;
        }
        HealthView view = checker.view();
        return view.peers().entrySet().stream().filter(e -> e.getKey().gateway().equals(gateway)).map(Map.Entry::getValue)
                .allMatch(PeerHealth::up);
    }

    /** Per cluster: where its server is and which clusters its answers leave out for their gateways. */
    public synchronized Map<String, ClusterDnsStatus> status() {
        Map<String, ClusterDnsStatus> status = new LinkedHashMap<>();
        served.forEach((cluster, s) -> status.put(cluster, new ClusterDnsStatus(s.dns().serviceAddress().toString(),
                s.dns().server().host() + " " + s.dns().serverAddress() + ":" + ClusterDns.SERVER_PORT,
                List.copyOf(current.get(cluster).clustersDown().stream().sorted().toList()), replacements.get(cluster))));
        return status;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        own.values().forEach(HealthChecker::close);
        remote.values().forEach(HealthChecker::close);
        served.values().forEach(s -> s.server().close());
    }
}
