package io.periscope.lab.apply;

import io.periscope.lab.dns.ClusterDns;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabBatches;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.layout.SwitchNamespace;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.LinkProperties;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.planner.Planner;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What an edit of a running lab's file changes, and whether the running lab can take it in place.
 *
 * <p>{@code lab up} creates namespaces, veths, bridges, addresses, the CNI's routes, kube-proxy's
 * chains, the DNS Service's DNAT and every WireGuard gateway's {@code wireguard-go}; nothing runs
 * later that could create or remove any of them. The supervisor's agents program only the Submariner
 * layer of each node (routes, nexthops, VXLAN devices, rules, chains, ipsets), level-driven, and its
 * DNS servers answer from whatever plan they are handed. So an edit can be taken in place when the
 * clusters and Globalnet stay as they are (which keeps every host, address and service) and when,
 * planned again, everything {@code up} built stays the same: the layout, every host's interfaces and
 * environment, the DNS servers' places, and the WireGuard devices. That leaves
 * {@code connectivityPolicies} (which clusters get cables and which get unreachable routes),
 * {@code connectionPolicies} / {@code defaults.cableDriver} between drivers the agents build
 * themselves (VXLAN, and Libreswan, which the lab runs as VXLAN), and the links: nodes' {@code uplink}
 * and the {@code cables}' properties, which the supervisor's link loop reshapes in place; flows are not
 * the lab's business. Within a cluster, its exports and GlobalEgressIPs ({@link #RECONCILED_FIELDS})
 * are the agents' and the DNS servers' (and, for an export's global IP, kube-proxy's, whose chains
 * {@code lab apply} reconciles as kube-proxy would), so adding or deleting one is taken in place too.
 *
 * <p>A node or pod removed for good is taken in place too ({@link #removed}): its namespace (and with
 * it its veths, their bridge ports and everything programmed in it) is what {@code lab apply}
 * deletes, as a machine leaves a cluster, once the agents of the nodes that remain have reconciled
 * without it; everything else {@code up} built must stay as it is for the hosts that remain. Only
 * removals: a node or pod added, or changed, still needs {@code up}.
 *
 * @param changed  the sections that differ, e.g. {@code connectivityPolicies}
 * @param refusals what the running lab cannot take, each naming what changed; empty when it can
 * @param removed  the hosts (nodes and pods) the edit removes, whose namespaces {@code apply} deletes
 */
public record TopologyChange(List<String> changed, List<String> refusals, List<HostId> removed) {

    public TopologyChange {
        changed = List.copyOf(changed);
        refusals = List.copyOf(refusals);
        removed = List.copyOf(removed);
    }

    public boolean takenInPlace() {
        return refusals.isEmpty();
    }

    public boolean none() {
        return changed.isEmpty();
    }

    /**
     * @param running the topology the running lab's supervisor plans from
     * @param edited  the edited file's topology, as written and read back the way the supervisor reads it
     */
    public static TopologyChange between(ClusterSet running, ClusterSet edited) {
        List<String> changed = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        if (!running.name().equals(edited.name())) {
            refusals.add("name: '" + running.name() + "' became '" + edited.name() + "' (the namespaces are named after it)");
        }
        if (!running.globalnet().equals(edited.globalnet())) {
            refusals.add("globalnet: its settings changed (every global address is allocated from them)");
        }
        refusals.addAll(clusterChanges(withoutUplinks(running), withoutUplinks(edited), changed));
        Map<String, LinkProperties> uplinksAfter = uplinks(edited);
        // A removed node's uplink goes with it: only the nodes that stay count.
        Map<String, LinkProperties> uplinksBefore = new java.util.TreeMap<>(uplinks(running));
        uplinksBefore.keySet().retainAll(uplinksAfter.keySet());
        if (!uplinksBefore.equals(uplinksAfter)) {
            changed.add("uplinks");
        }
        if (!running.cables().equals(edited.cables())) {
            changed.add("cables");
        }
        if (!running.connectivityPolicies().equals(edited.connectivityPolicies())) {
            changed.add("connectivityPolicies");
        }
        if (!running.connectionPolicies().equals(edited.connectionPolicies())) {
            changed.add("connectionPolicies");
        }
        if (running.defaultCableDriver() != edited.defaultCableDriver()) {
            changed.add("defaults.cableDriver");
        }
        List<HostId> removed = refusals.isEmpty() ? removedHosts(running, edited) : List.of();
        if (refusals.isEmpty() && !changed.isEmpty()) {
            refusals.addAll(builtByUp(running, edited, removed));
        }
        List<String> all = new ArrayList<>(refusals.stream().map(r -> r.substring(0, r.indexOf(':'))).toList());
        changed.stream().filter(c -> !all.contains(c)).forEach(all::add);
        return new TopologyChange(new ArrayList<>(new LinkedHashSet<>(all)), refusals, refusals.isEmpty() ? removed : List.of());
    }

    /** The hosts the running set plans and the edited one no longer does: the removed nodes and pods. */
    private static List<HostId> removedHosts(ClusterSet running, ClusterSet edited) {
        Set<HostId> after = Planner.plan(LabCables.of(edited).set()).hosts().keySet();
        return Planner.plan(LabCables.of(running).set()).hosts().keySet().stream().filter(id -> !after.contains(id)).toList();
    }

    /**
     * Whether {@code after}'s nodes and pods are {@code before}'s with some left out, each kept one as
     * it was and in its order: what a node or pod leaving the cluster for good looks like.
     */
    private static boolean onlyRemoved(Cluster before, Cluster after) {
        return keptInOrder(before.nodes(), after.nodes()) && keptInOrder(before.pods(), after.pods())
                && after.pods().stream().allMatch(p -> after.node(p.node()).isPresent());
    }

    private static <T> boolean keptInOrder(List<T> before, List<T> after) {
        int at = 0;
        for (T kept : after) {
            while (at < before.size() && !before.get(at).equals(kept)) {
                at++;
            }
            if (at == before.size()) {
                return false;
            }
            at++;
        }
        return true;
    }

    /** Every node's uplink, by {@code cluster/node}: the supervisor's link loop reshapes them in place. */
    private static Map<String, LinkProperties> uplinks(ClusterSet set) {
        Map<String, LinkProperties> uplinks = new java.util.TreeMap<>();
        set.clusters().forEach(c -> c.nodes().forEach(n -> uplinks.put(c.name() + "/" + n.name(), n.link().uplink())));
        return uplinks;
    }

    /** The set with every uplink unshaped, so that a cluster counts as changed only for what the links do not cover. */
    private static ClusterSet withoutUplinks(ClusterSet set) {
        return set.withClusters(set.clusters().stream().map(c -> c.withNodes(c.nodes().stream()
                .map(n -> n.withLink(n.link().withUplink(LinkProperties.NONE))).toList())).toList());
    }

    /**
     * A cluster's fields that only the agents and the DNS servers act on: an export and a
     * GlobalEgressIP become Globalnet's rules, ipsets and Lighthouse's answers, which the supervisor
     * replans and its agents reconcile (deleting what the edit dropped). The hosts, services and
     * addresses {@code up} built stay, which {@link #builtByUp} still checks.
     */
    static final Set<String> RECONCILED_FIELDS = Set.of("exports", "globalEgressIPs");

    /** A cluster's fields that lose entries when a node or pod leaves for good ({@link #onlyRemoved}). */
    static final Set<String> REMOVABLE_FIELDS = Set.of("nodes", "pods");

    /** {@code cluster 'c' lost its node gw-1 (and pod default/x)}: what a removal says it changes. */
    private static String removal(Cluster before, Cluster after) {
        List<String> gone = new ArrayList<>();
        before.nodes().stream().filter(n -> after.node(n.name()).isEmpty()).forEach(n -> gone.add("node " + n.name()));
        before.pods().stream().filter(p -> !after.pods().contains(p)).forEach(p -> gone.add("pod " + p.namespace() + "/" + p.name()));
        return "cluster '" + before.name() + "' lost its " + String.join(", ", gone);
    }

    /** Each cluster added, removed or changed, naming the fields that changed; changes the agents take go to {@code changed}. */
    private static List<String> clusterChanges(ClusterSet running, ClusterSet edited, List<String> changed) {
        List<String> refusals = new ArrayList<>();
        Map<String, Cluster> before = byName(running.clusters());
        Map<String, Cluster> after = byName(edited.clusters());
        before.keySet().stream().filter(name -> !after.containsKey(name))
                .forEach(name -> refusals.add("clusters: cluster '" + name + "' was removed"));
        after.keySet().stream().filter(name -> !before.containsKey(name))
                .forEach(name -> refusals.add("clusters: cluster '" + name + "' was added"));
        for (Map.Entry<String, Cluster> entry : before.entrySet()) {
            Cluster other = after.get(entry.getKey());
            if (other != null && !entry.getValue().equals(other)) {
                List<String> fields = fieldsThatDiffer(entry.getValue(), other);
                if (RECONCILED_FIELDS.containsAll(fields)) {
                    changed.add("the " + String.join(", ", fields) + " of cluster '" + entry.getKey() + "'");
                    continue;
                }
                List<String> others = fields.stream().filter(f -> !RECONCILED_FIELDS.contains(f) && !REMOVABLE_FIELDS.contains(f)).toList();
                if (others.isEmpty() && onlyRemoved(entry.getValue(), other)) {
                    changed.add(removal(entry.getValue(), other) + (fields.stream().anyMatch(RECONCILED_FIELDS::contains)
                            ? " and its " + String.join(", ", fields.stream().filter(RECONCILED_FIELDS::contains).toList()) + " changed" : ""));
                    continue;
                }
                refusals.add("clusters: cluster '" + entry.getKey() + "' changed its " + String.join(", ", fields));
            }
        }
        List<String> order = running.clusters().stream().map(Cluster::name).filter(after::containsKey).toList();
        List<String> newOrder = edited.clusters().stream().map(Cluster::name).filter(before::containsKey).toList();
        if (refusals.isEmpty() && !order.equals(newOrder)) {
            refusals.add("clusters: their order changed (the broker hands out global CIDRs in that order)");
        }
        return refusals;
    }

    private static Map<String, Cluster> byName(List<Cluster> clusters) {
        return clusters.stream().collect(Collectors.toMap(Cluster::name, Function.identity(), (a, b) -> a, java.util.LinkedHashMap::new));
    }

    /** The record's fields, by their file names where those differ ({@code podCidrs} is {@code podCIDRs} in the file). */
    private static List<String> fieldsThatDiffer(Cluster a, Cluster b) {
        List<String> fields = new ArrayList<>();
        for (RecordComponent component : Cluster.class.getRecordComponents()) {
            try {
                if (!Objects.equals(component.getAccessor().invoke(a), component.getAccessor().invoke(b))) {
                    fields.add(component.getName());
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("a record's accessor is public", e);
            }
        }
        return fields;
    }

    /** What {@code up} built that the edit, planned again, would want otherwise. */
    private static List<String> builtByUp(ClusterSet running, ClusterSet edited, List<HostId> removed) {
        ClusterSetPlan before = Planner.plan(LabCables.of(running).set());
        ClusterSetPlan after = Planner.plan(LabCables.of(edited).set());
        LabLayout was = LabLayout.of(before);
        LabLayout will = LabLayout.of(after);
        List<String> refusals = new ArrayList<>();
        Set<String> wireGuard = new java.util.TreeSet<>();
        Set<String> built = new java.util.LinkedHashSet<>();
        for (HostPlan host : before.hosts().values()) {
            HostPlan next = after.host(host.id()).orElse(null);
            if (next == null) {
                if (!removed.contains(host.id())) {
                    built.add("host " + host.id() + " would go");
                } else if (!host.submariner().wireGuardDevices().isEmpty()) {
                    // up started its wireguard-go, which nothing but lab down stops.
                    wireGuard.add(host.id().toString());
                }
                continue;
            }
            if (!host.submariner().wireGuardDevices().equals(next.submariner().wireGuardDevices())) {
                wireGuard.add(host.id().toString());
            }
            // A removed pod's veth goes with its namespace, and the CNI deletes its routes to what left (CniCleanup).
            boolean vethsToRemoved = removed.isEmpty() ? host.interfaces().equals(next.interfaces())
                    : keptInOrder(host.interfaces(), next.interfaces());
            if (!vethsToRemoved) {
                built.add("the interfaces of " + host.id());
            }
            if (!host.environment().equals(next.environment()) && (removed.isEmpty() || !CniCleanup.routingOnly(host, next))) {
                built.add("the CNI's routes, rules and settings of " + host.id());
            }
        }
        if (!wireGuard.isEmpty()) {
            refusals.add(cableSection(running, edited) + ": the WireGuard devices of " + String.join(", ", wireGuard)
                    + " would change, and 'lab up' starts wireguard-go for each device (the agents only route into them)");
        }
        after.hosts().keySet().stream().filter(id -> before.host(id).isEmpty()).forEach(id -> built.add("host " + id + " would come"));
        LabLayout remaining = without(was, removed);
        if (!remaining.namespaces().equals(will.namespaces())) {
            built.add("the namespaces");
        }
        // Each remaining host's own batch was checked above, interface by interface and route by route.
        if (!LabBatches.veths(remaining).equals(LabBatches.veths(will)) || !batches(remaining, removed.isEmpty()).equals(batches(will, removed.isEmpty()))) {
            built.add("the links and addresses");
        }
        if (!places(ClusterDns.of(before.clusterSet(), was)).equals(places(ClusterDns.of(after.clusterSet(), will)))) {
            built.add("the DNS servers' places");
        }
        if (!built.isEmpty()) {
            refusals.add(cableSection(running, edited) + ": what 'lab up' built would change: " + String.join(", ", built));
        }
        return refusals;
    }

    /**
     * The lab as it is once the namespaces of {@code removed} are deleted: their veths go with them, and
     * so do the far ends of those veths, the switches' ports.
     */
    static LabLayout without(LabLayout layout, List<HostId> removed) {
        Set<String> gone = layout.hosts().stream().filter(h -> removed.contains(h.host())).map(HostNamespace::namespace)
                .collect(Collectors.toSet());
        return new LabLayout(layout.names(), layout.hosts().stream().filter(h -> !gone.contains(h.namespace())).toList(),
                layout.switches().stream().map(sw -> new SwitchNamespace(sw.segment(), sw.namespace(),
                        sw.ports().stream().filter(p -> !removed.contains(p.host())).toList())).toList(),
                layout.veths().stream().filter(v -> !gone.contains(v.first().namespace()) && !gone.contains(v.second().namespace())).toList());
    }

    private static List<String> places(List<ClusterDns> servers) {
        return servers.stream().map(d -> d.cluster() + " " + d.serviceAddress() + " " + d.server().namespace() + " " + d.serverAddress()).toList();
    }

    private static List<String> batches(LabLayout layout, boolean hostBatches) {
        List<String> all = new ArrayList<>();
        layout.hosts().stream().map(HostNamespace::namespace).forEach(all::add);
        if (hostBatches) {
            layout.hosts().stream().map(LabBatches::hostBatch).forEach(all::add);
        }
        layout.switches().stream().map(SwitchNamespace::namespace).forEach(all::add);
        layout.switches().stream().map(LabBatches::switchBatch).forEach(all::add);
        return all;
    }

    private static String cableSection(ClusterSet running, ClusterSet edited) {
        if (!running.clusters().equals(edited.clusters()) && running.connectivityPolicies().equals(edited.connectivityPolicies())) {
            return "clusters";
        }
        if (!running.connectionPolicies().equals(edited.connectionPolicies())) {
            return "connectionPolicies";
        }
        return running.defaultCableDriver() != edited.defaultCableDriver() ? "defaults.cableDriver" : "connectivityPolicies";
    }
}
