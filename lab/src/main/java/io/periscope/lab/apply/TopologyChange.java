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
 * @param changed  the sections that differ, e.g. {@code connectivityPolicies}
 * @param refusals what the running lab cannot take, each naming what changed; empty when it can
 */
public record TopologyChange(List<String> changed, List<String> refusals) {

    public TopologyChange {
        changed = List.copyOf(changed);
        refusals = List.copyOf(refusals);
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
        if (!uplinks(running).equals(uplinks(edited))) {
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
        if (refusals.isEmpty() && !changed.isEmpty()) {
            refusals.addAll(builtByUp(running, edited));
        }
        List<String> all = new ArrayList<>(refusals.stream().map(r -> r.substring(0, r.indexOf(':'))).toList());
        changed.stream().filter(c -> !all.contains(c)).forEach(all::add);
        return new TopologyChange(new ArrayList<>(new LinkedHashSet<>(all)), refusals);
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
    private static List<String> builtByUp(ClusterSet running, ClusterSet edited) {
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
                built.add("host " + host.id() + " would go");
                continue;
            }
            if (!host.submariner().wireGuardDevices().equals(next.submariner().wireGuardDevices())) {
                wireGuard.add(host.id().toString());
            }
            if (!host.interfaces().equals(next.interfaces())) {
                built.add("the interfaces of " + host.id());
            }
            if (!host.environment().equals(next.environment())) {
                built.add("the CNI's routes, rules and settings of " + host.id());
            }
        }
        if (!wireGuard.isEmpty()) {
            refusals.add(cableSection(running, edited) + ": the WireGuard devices of " + String.join(", ", wireGuard)
                    + " would change, and 'lab up' starts wireguard-go for each device (the agents only route into them)");
        }
        if (!was.namespaces().equals(will.namespaces())) {
            built.add("the namespaces");
        }
        if (!LabBatches.veths(was).equals(LabBatches.veths(will)) || !batches(was).equals(batches(will))) {
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

    private static List<String> places(List<ClusterDns> servers) {
        return servers.stream().map(d -> d.cluster() + " " + d.serviceAddress() + " " + d.server().namespace() + " " + d.serverAddress()).toList();
    }

    private static List<String> batches(LabLayout layout) {
        List<String> all = new ArrayList<>();
        layout.hosts().stream().map(HostNamespace::namespace).forEach(all::add);
        layout.hosts().stream().map(LabBatches::hostBatch).forEach(all::add);
        layout.switches().stream().map(SwitchNamespace::namespace).forEach(all::add);
        layout.switches().stream().map(LabBatches::switchBatch).forEach(all::add);
        return all;
    }

    private static String cableSection(ClusterSet running, ClusterSet edited) {
        if (!running.connectionPolicies().equals(edited.connectionPolicies())) {
            return "connectionPolicies";
        }
        return running.defaultCableDriver() != edited.defaultCableDriver() ? "defaults.cableDriver" : "connectivityPolicies";
    }
}
