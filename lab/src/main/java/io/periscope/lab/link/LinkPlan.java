package io.periscope.lab.link;

import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.LabCables;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.layout.SwitchNamespace;
import io.periscope.lab.layout.SwitchPort;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.CableLink;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.LinkProperties;
import io.periscope.model.topology.Node;
import io.periscope.plan.HostId;
import io.periscope.plan.Interface;
import io.periscope.plan.Names;
import io.periscope.planner.Planner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a cluster set's links become in its lab, worked out before anything is touched (pure, like
 * {@link LabLayout}):
 * <ul>
 *   <li>a node's {@code uplink} on every device it has on a lab switch (its own interface and a
 *       gateway's {@code wan0}), both ways: its {@code rate} and {@code queue} on the node's device
 *       for what the node sends, and on the switch's port towards it for what it receives; its
 *       {@code loss} and {@code delay} in the node's link chains, for packets leaving by the device
 *       ({@code POSTROUTING -o}) and arriving by it ({@code PREROUTING -i});</li>
 *   <li>a cable on each of its two clusters' gateways' {@code wan0}, for the packets to the other
 *       cluster's gateways' endpoint addresses: its rate as an htb class under the uplink's, its loss and
 *       delay in {@code OUTPUT} and {@code FORWARD} (a queued packet skips the rest of its hook's chain,
 *       so the cable's queue cannot share {@code POSTROUTING} with the uplink's).</li>
 * </ul>
 * Every crossing of a link is counted once: a packet between two nodes crosses the sender's uplink
 * leaving and the receiver's arriving.
 *
 * @param namespaces every namespace holding a device on a switch (nodes and switches, in the layout's order)
 */
public record LinkPlan(List<NamespaceLinks> namespaces) {

    /** NFQUEUE queue of a node's packets leaving by its uplink. */
    public static final int QUEUE_UPLINK_OUT = 1;
    /** NFQUEUE queue of a node's packets arriving by its uplink. */
    public static final int QUEUE_UPLINK_IN = 2;
    /** A cable's queue (and htb class minor) is this plus the index of the cluster at its other end. */
    public static final int CABLE_BASE = 0x10;
    /** The queue the topology file's docs promise when a link gives none: what {@code tc} gives a device. */
    public static final int DEFAULT_QUEUE = 1000;

    public LinkPlan {
        namespaces = List.copyOf(namespaces);
    }

    /** The links of {@code topology}'s lab (its cables as the lab runs them, see {@link LabCables}). */
    public static LinkPlan of(ClusterSet topology) {
        ClusterSet set = LabCables.of(topology).set();
        return of(set, LabLayout.of(Planner.plan(set)));
    }

    /** The links of the lab of {@code set} laid out as {@code layout}. */
    public static LinkPlan of(ClusterSet set, LabLayout layout) {
        Map<String, List<ManagedDevice>> devices = new LinkedHashMap<>();
        Map<String, List<LinkRule>> rules = new LinkedHashMap<>();
        layout.nodes().forEach(n -> {
            devices.put(n.namespace(), new ArrayList<>());
            rules.put(n.namespace(), new ArrayList<>());
        });
        layout.switches().forEach(s -> devices.put(s.namespace(), new ArrayList<>()));
        for (SwitchNamespace sw : layout.switches()) {
            for (SwitchPort port : sw.ports()) {
                if (port.host().isPod()) {
                    continue;
                }
                HostNamespace host = layout.requireHost(port.host());
                Cluster cluster = set.requireCluster(port.host().cluster());
                Node node = cluster.requireNode(port.host().name());
                LinkProperties uplink = node.link().uplink();
                boolean wan = port.hostInterface().equals(Names.WAN);
                List<CableClass> cables = wan ? cableClasses(set, cluster) : List.of();
                int hostMtu = host.plan().interfaces().stream().filter(i -> i.name().equals(port.hostInterface())).mapToInt(Interface::mtu)
                        .findFirst().orElse(Interface.DEFAULT_MTU);
                String who = port.host() + " uplink (" + port.hostInterface() + ")";
                devices.get(host.namespace()).add(new ManagedDevice(port.hostInterface(), hostMtu, who + ", leaving",
                        shaping(uplink, cables)));
                devices.get(sw.namespace()).add(new ManagedDevice(port.name(), port.mtu(), who + ", arriving",
                        shaping(uplink, List.of())));
                rules.get(host.namespace()).addAll(uplinkRules(uplink, port.hostInterface()));
                if (wan) {
                    rules.get(host.namespace()).addAll(cableRules(set, cluster));
                }
            }
        }
        List<NamespaceLinks> all = new ArrayList<>();
        devices.forEach((namespace, list) -> all.add(new NamespaceLinks(namespace, rules.containsKey(namespace), list,
                order(rules.getOrDefault(namespace, List.of())))));
        return new LinkPlan(all);
    }

    /** Loss first: a queued packet leaves the chain, so a drop after its queue rule would never be reached. */
    private static List<LinkRule> order(List<LinkRule> rules) {
        List<LinkRule> ordered = new ArrayList<>();
        for (String chain : LinkChains.CHAINS) {
            rules.stream().filter(r -> r.chain().equals(chain)).forEach(ordered::add);
        }
        return ordered;
    }

    private static Optional<Shaping> shaping(LinkProperties uplink, List<CableClass> cables) {
        if (uplink.rateBitsPerSecond().isEmpty() && cables.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Shaping(uplink.rateBitsPerSecond(), uplink.queuePackets().orElse(DEFAULT_QUEUE), cables));
    }

    /** The cables of {@code cluster} that have a rate, each towards the other cluster's gateways. */
    private static List<CableClass> cableClasses(ClusterSet set, Cluster cluster) {
        List<CableClass> classes = new ArrayList<>();
        for (int index = 0; index < set.clusters().size(); index++) {
            Cluster other = set.clusters().get(index);
            if (other.name().equals(cluster.name())) {
                continue;
            }
            Optional<CableLink> cable = set.cables().stream().filter(c -> c.joins(cluster.name(), other.name())).findFirst();
            if (cable.isEmpty() || cable.get().properties().rateBitsPerSecond().isEmpty()) {
                continue;
            }
            LinkProperties properties = cable.get().properties();
            if (endpoints(other).isEmpty()) {
                continue;    // a cluster that lost every gateway node (lab fail): nothing crosses the cable
            }
            classes.add(new CableClass(other.name(), CABLE_BASE + index, properties.rateBitsPerSecond().getAsLong(),
                    properties.queuePackets().orElse(DEFAULT_QUEUE), endpoints(other)));
        }
        return classes;
    }

    /** Every gateway node's: a standby's device is on the WAN too, and takes over the cable's traffic. */
    private static List<Ipv4Address> endpoints(Cluster cluster) {
        return new ArrayList<>(new TreeSet<>(cluster.gateways().stream().map(Node::endpointIp).toList()));
    }

    private static List<LinkRule> uplinkRules(LinkProperties uplink, String device) {
        List<LinkRule> rules = new ArrayList<>();
        Optional<String> none = Optional.empty();
        Optional<String> dev = Optional.of(device);
        if (uplink.lossProbability() > 0) {
            LinkRule.Drop drop = LinkRule.Drop.probability(uplink.lossProbability());
            rules.add(new LinkRule(LinkChains.OUT, none, dev, Optional.empty(), drop));
            rules.add(new LinkRule(LinkChains.IN, dev, none, Optional.empty(), drop));
        }
        if (delayed(uplink)) {
            rules.add(new LinkRule(LinkChains.OUT, none, dev, Optional.empty(), new LinkRule.Queue(QUEUE_UPLINK_OUT)));
            rules.add(new LinkRule(LinkChains.IN, dev, none, Optional.empty(), new LinkRule.Queue(QUEUE_UPLINK_IN)));
        }
        return rules;
    }

    private static List<LinkRule> cableRules(ClusterSet set, Cluster cluster) {
        List<LinkRule> drops = new ArrayList<>();
        List<LinkRule> queues = new ArrayList<>();
        for (int index = 0; index < set.clusters().size(); index++) {
            Cluster other = set.clusters().get(index);
            if (other.name().equals(cluster.name())) {
                continue;
            }
            LinkProperties cable = set.cableBetween(cluster.name(), other.name());
            for (Ipv4Address endpoint : endpoints(other)) {
                Optional<Ipv4Address> to = Optional.of(endpoint);
                if (cable.lossProbability() > 0) {
                    drops.add(new LinkRule(LinkChains.CABLE, Optional.empty(), Optional.of(Names.WAN), to,
                            LinkRule.Drop.probability(cable.lossProbability())));
                }
                if (delayed(cable)) {
                    queues.add(new LinkRule(LinkChains.CABLE, Optional.empty(), Optional.of(Names.WAN), to,
                            new LinkRule.Queue(CABLE_BASE + index)));
                }
            }
        }
        drops.addAll(queues);
        return drops;
    }

    static boolean delayed(LinkProperties link) {
        return link.delay().filter(d -> !d.isZero()).isPresent();
    }

    /** The namespace's links, empty when the lab has no such namespace on a switch. */
    public Optional<NamespaceLinks> namespace(String name) {
        return namespaces.stream().filter(n -> n.namespace().equals(name)).findFirst();
    }

    /** Whether the topology asks anything of any link. */
    public boolean asksAnything() {
        return namespaces.stream().anyMatch(NamespaceLinks::asksAnything);
    }

    /**
     * The delay lines the lab needs, one per namespace and direction of a delayed link: what the
     * supervisor's delay line listens to. A pure function of the cluster set and the lab's names.
     */
    public static List<DelayedLink> delays(ClusterSet topology) {
        ClusterSet set = LabCables.of(topology).set();
        return delays(set, LabLayout.of(Planner.plan(set)));
    }

    /** The same for a set already laid out. */
    public static List<DelayedLink> delays(ClusterSet set, LabLayout layout) {
        List<DelayedLink> delays = new ArrayList<>();
        for (HostNamespace host : layout.nodes()) {
            HostId id = host.host();
            Cluster cluster = set.requireCluster(id.cluster());
            LinkProperties uplink = cluster.requireNode(id.name()).link().uplink();
            boolean onSwitch = layout.switches().stream().flatMap(s -> s.ports().stream()).anyMatch(p -> p.host().equals(id));
            if (!onSwitch) {
                continue;
            }
            if (delayed(uplink)) {
                Duration delay = uplink.delay().orElseThrow();
                Duration jitter = uplink.jitter().orElse(Duration.ZERO);
                delays.add(new DelayedLink(host.namespace(), QUEUE_UPLINK_OUT, delay, jitter, id + " uplink, leaving"));
                delays.add(new DelayedLink(host.namespace(), QUEUE_UPLINK_IN, delay, jitter, id + " uplink, arriving"));
            }
            boolean wan = host.plan().interfaces().stream().anyMatch(i -> i.name().equals(Names.WAN));
            if (!wan) {
                continue;
            }
            for (int index = 0; index < set.clusters().size(); index++) {
                Cluster other = set.clusters().get(index);
                LinkProperties cable = set.cableBetween(cluster.name(), other.name());
                if (!other.name().equals(cluster.name()) && delayed(cable) && !other.gateways().isEmpty()) {
                    delays.add(new DelayedLink(host.namespace(), CABLE_BASE + index, cable.delay().orElseThrow(),
                            cable.jitter().orElse(Duration.ZERO), "cable " + cluster.name() + " -> " + other.name() + " at " + id));
                }
            }
        }
        return delays;
    }

    /**
     * One line for {@code lab up}'s progress, e.g. {@code 6 devices shaped in 4 namespaces (1 cable class);
     * loss on 2 uplinks and 1 cable; delay on 1 uplink (5ms ± 1ms) and 1 cable (20ms)}.
     */
    public String describe(List<DelayedLink> delays, ClusterSet set) {
        long devices = namespaces.stream().mapToLong(NamespaceLinks::shapedDevices).sum();
        long shapedNamespaces = namespaces.stream().filter(n -> n.shapedDevices() > 0).count();
        long cableClasses = namespaces.stream().flatMap(n -> n.devices().stream()).flatMap(d -> d.shaping().stream())
                .mapToLong(s -> s.cables().size()).sum();
        List<Node> lossyUplinks = new ArrayList<>();
        List<Node> delayedUplinks = new ArrayList<>();
        for (Cluster cluster : set.clusters()) {
            for (Node node : cluster.nodes()) {
                if (node.link().uplink().lossProbability() > 0) {
                    lossyUplinks.add(node);
                }
                if (delayed(node.link().uplink())) {
                    delayedUplinks.add(node);
                }
            }
        }
        List<CableLink> lossyCables = set.cables().stream().filter(c -> c.properties().lossProbability() > 0).toList();
        List<CableLink> delayedCables = set.cables().stream().filter(c -> delayed(c.properties())).toList();
        if (devices == 0 && lossyUplinks.isEmpty() && delayedUplinks.isEmpty() && lossyCables.isEmpty() && delayedCables.isEmpty()) {
            return "none shaped (the file gives no link a rate, loss or delay)";
        }
        StringBuilder text = new StringBuilder();
        if (devices == 0) {
            text.append("no rate");
        } else {
            text.append(devices).append(devices == 1 ? " device" : " devices").append(" shaped in ").append(shapedNamespaces)
                    .append(shapedNamespaces == 1 ? " namespace" : " namespaces");
        }
        if (cableClasses > 0) {
            text.append(" (").append(cableClasses).append(cableClasses == 1 ? " cable class)" : " cable classes)");
        }
        text.append("; loss on ").append(counted(lossyUplinks.size(), lossyCables.size(), List.of(), List.of()));
        text.append("; delay on ").append(counted(delayedUplinks.size(), delayedCables.size(),
                delayedUplinks.stream().map(n -> n.link().uplink()).toList(), delayedCables.stream().map(CableLink::properties).toList()));
        if (!delays.isEmpty()) {
            text.append(", held by the supervisor's delay line on ").append(delays.size()).append(delays.size() == 1 ? " NFQUEUE queue" : " NFQUEUE queues");
        }
        return text.toString();
    }

    private static String counted(int uplinks, int cables, List<LinkProperties> uplinkDelays, List<LinkProperties> cableDelays) {
        if (uplinks == 0 && cables == 0) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        if (uplinks > 0) {
            parts.add(uplinks + (uplinks == 1 ? " uplink" : " uplinks") + delays(uplinkDelays));
        }
        if (cables > 0) {
            parts.add(cables + (cables == 1 ? " cable" : " cables") + delays(cableDelays));
        }
        return String.join(" and ", parts);
    }

    private static String delays(List<LinkProperties> links) {
        if (links.isEmpty()) {
            return "";
        }
        return links.stream().map(l -> LinkProperties.durationText(l.delayOrZero())
                        + l.jitter().filter(j -> !j.isZero()).map(j -> " ± " + LinkProperties.durationText(j)).orElse(""))
                .distinct().collect(Collectors.joining(", ", " (", ")"));
    }
}
