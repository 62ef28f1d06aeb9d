package io.periscope.simulator.reachability;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.net.Ipv4Range;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.Segment;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.link.FdbEntry;
import io.periscope.plan.link.Neighbour;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.plan.routing.Route;
import io.periscope.simulator.MultipathMode;
import io.periscope.simulator.engine.EndpointClasses;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.trace.Packet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a cluster set plan does with each source pod's address, read from the plan itself (it knows no
 * more Submariner than the simulator does). Two pods on one node get the same trace to a service, with
 * one address where the other has its own, when nothing their packets meet tells the addresses apart:
 *
 * <ul>
 *   <li>every prefix of the plan that is not a single address (rule matches, routes, policy rules)
 *       holds both or neither, and so does every ipset of every host;</li>
 *   <li>nothing names either address exactly, except a pod's own delivery route on its node and its
 *       own namespace's plan (the same for both with the address swapped); a route, policy rule, SNAT
 *       range or neighbour naming the address makes the pod a class of its own;</li>
 *   <li>no chain that the trace enters while its packet carries either address has a rule naming
 *       either address (a {@code /32} match or a DNAT to it: a hairpin through its own service, a
 *       headless pod's own global IP, a legacy per-pod SNAT). Which chains a trace enters depends on
 *       the service, so this is checked per trace: the simulator reports the chains with the packet,
 *       and a pod named in one of them is traced itself. A chain entered with neither address on the
 *       packet sees the same packet in both traces (another cluster's kube-proxy DNATing to a pod
 *       that happens to have the same address, say);</li>
 *   <li>what a hash picks from the source address is alike: every SNAT range treats all its addresses
 *       the same way (the same holds as above, for the range's addresses), no rule matches a source
 *       port (VXLAN's outer source port is a hash of the inner flow), and the simulator follows every
 *       multipath branch instead of hashing.</li>
 * </ul>
 *
 * <p>Namespaces and labels count only through what the plan made of them (ipsets, rules), so pods of
 * different namespaces share a class when Globalnet gives their namespaces nothing of their own.
 */
final class PodTreatment {

    /** A chain of one host, as a trace reports entering it. */
    record ChainId(HostId host, Table table, String chain) {

        /**
         * The record's own hash sums its parts times powers of 31, and a set of many clusters alike
         * repeats the same chain names on hosts whose names differ in a character or two: those sums
         * crowd into few buckets of a hash map while it grows (tree bins of keys that cannot be
         * ordered, searched end to end). Mixed, they spread.
         */
        @Override
        public int hashCode() {
            int h = host.hashCode() * 0x9E3779B9 + table.ordinal();
            h = (h ^ (h >>> 15)) * 0x85EBCA6B + chain.hashCode();
            h = (h ^ (h >>> 13)) * 0xC2B2AE35;
            return h ^ (h >>> 16);
        }
    }

    /** A place where the plan names one address exactly. */
    private sealed interface Naming {

        HostId host();

        /** A rule of this chain matches the address as {@code /32} or DNATs to it. */
        record InChain(ChainId chain) implements Naming {
            public HostId host() {
                return chain.host();
            }
        }

        /** The host's ipset holds the address (as a member or inside a member network). */
        record InIpSet(HostId host, String set) implements Naming {
        }

        /** A route names the address (destination, source, nexthop); kept with the address abstracted. */
        record InRoute(HostId host, Route route) implements Naming {
        }

        /** A policy rule selects the address alone. */
        record InPolicyRule(HostId host, PolicyRule rule) implements Naming {
        }

        /** A neighbour or FDB entry, or an SNAT range, holds the address. */
        record Elsewhere(HostId host, String what) implements Naming {
        }

        /**
         * A host delivers the address into a pod over that pod's veth: for a pod of the same address
         * elsewhere (clusters may overlap), which veth it is does not matter, only where.
         */
        record IntoPod(HostId host) implements Naming {
        }

        /** A rule of the pod's node matches the node's end of the pod's veth by this interface pattern. */
        record ByInterface(ChainId chain, String pattern) implements Naming {
            public HostId host() {
                return chain.host();
            }
        }
    }

    /** Which pods share a trace: equal keys, and no chain entered naming either. */
    record PodKey(String cluster, String node, String ownPlan, BitSet prefixes, Set<Naming> memberships,
                  Ipv4Address addressSpecific) {
    }

    private static final Ipv4Address PLACEHOLDER = Ipv4Address.ANY;
    private static final long LARGEST_RANGE_CHECKED = 4096;

    private final List<PodKey> keys;
    private final Map<ChainId, int[]> namingChains;
    private final BitSet namedRows;
    private final Optional<String> noClasses;
    /** Each row's pod address, as bits. */
    private final int[] addresses;
    private final EndpointClasses endpoints;

    private PodTreatment(List<PodKey> keys, Map<ChainId, int[]> namingChains, BitSet namedRows, Optional<String> noClasses,
                         int[] addresses, EndpointClasses endpoints) {
        this.endpoints = endpoints;
        this.addresses = addresses;
        this.keys = List.copyOf(keys);
        this.namingChains = Map.copyOf(namingChains);
        this.namedRows = namedRows;
        this.noClasses = noClasses;
    }

    /** The key of {@code pod} (by its row): pods with equal keys are traced once, as long as {@link #chainsNaming} allows. */
    PodKey key(SourcePod pod) {
        return keys.get(pod.row());
    }

    /** Why no two pods may share a trace in this plan (then every pod is traced), or empty. */
    Optional<String> noClasses() {
        return noClasses;
    }

    /** Whether some rule names a pod's own address in a chain (then a trace entering it concerns that pod). */
    boolean namedInSomeChain(SourcePod pod) {
        return namedRows.get(pod.row());
    }

    /** An observer to give a trace: afterwards it holds the rows of the pods named in a chain the trace entered. */
    NamedPods chainsNaming() {
        return new NamedPods(namingChains, addresses);
    }

    /**
     * Collects the rows of the pods whose trace may differ from the stand-in's, because the trace
     * entered a chain with a rule naming the pod's address while the packet carried the stand-in's
     * address or that pod's. A chain entered with neither address on the packet treats the two
     * traces' packets alike, as the packets are then the same.
     */
    static final class NamedPods implements ChainObserver {

        private final Map<ChainId, int[]> namingChains;
        private final int[] addresses;
        private final Set<Integer> podAddresses;
        private final BitSet rows = new BitSet();
        private int standRow = -1;
        private int stand;

        private NamedPods(Map<ChainId, int[]> namingChains, int[] addresses) {
            this.namingChains = namingChains;
            this.addresses = addresses;
            this.podAddresses = new HashSet<>();
            for (int address : addresses) {
                podAddresses.add(address);
            }
            for (ChainId id : namingChains.keySet()) {
                int bit = id.chain().hashCode() & NAME_FILTER_MASK;
                namingNames[bit >>> 6] |= 1L << bit;
            }
        }

        /**
         * The hash codes of the names of the chains that name a pod, as bits: a chain whose name's bit
         * is clear names none, found without the two look-ups below (a string caches its hash code).
         * Most chains a walk enters (the built-in ones, kube-proxy's service chains, Submariner's) name
         * no pod, and the observer is told of each on every path: in the 400-path set of
         * {@code scripts/benchmark-check}, those look-ups were a fifth of the CPU time. 2^18 bits:
         * 32 KiB, against some ten thousand names of endpoint chains in that set.
         */
        private static final int NAME_FILTER_MASK = (1 << 18) - 1;
        private final long[] namingNames = new long[(NAME_FILTER_MASK + 1) / 64];

        /**
         * A built-in chain that can act on no packet of the stand-in's is still one to be told of: the
         * stand-in's reply carries its own address where another pod's reply carries that pod's, and a
         * chain whose every rule matches another destination (a {@code -d} naming that pod) is skipped
         * for the one and walked for the other.
         */
        @Override
        public boolean seesEveryChain() {
            return true;
        }

        /** True for a chain that names no pod: the name filter, then the chain's rows looked up (and kept). */
        @Override
        public boolean ignores(HostId host, Table table, String chain) {
            return named(host, table, chain).length == 0;
        }

        /**
         * {@link #namingChains} by the very objects a trace reports: each host's id and each chain's
         * name are one object per compiled host and chain, so a chain entered again (on each of a
         * flow's hundreds of paths) is found by identity, without hashing and comparing its strings.
         * Per table; a chain naming no pod maps to {@link #NAMES_NONE}.
         */
        private final List<Map<HostId, Map<String, int[]>>> byIdentity = new ArrayList<>();
        private static final int[] NAMES_NONE = new int[0];

        /**
         * The chain {@link #named} last looked up past the name filter, and its rows: a walk asks
         * {@link #ignores} and then {@link #entered} of the same chain, one right after the other.
         */
        private HostId lastHost;
        private Table lastTable;
        private String lastChain;
        private int[] lastNamed;

        /** The rows of the pods that {@code chain} of {@code host} names; empty for most chains. */
        private int[] named(HostId host, Table table, String chain) {
            int bit = chain.hashCode() & NAME_FILTER_MASK;
            if ((namingNames[bit >>> 6] & 1L << bit) == 0) {
                return NAMES_NONE;
            }
            if (host == lastHost && table == lastTable && chain == lastChain) {
                return lastNamed;
            }
            int[] named = lookedUp(host, table, chain);
            lastHost = host;
            lastTable = table;
            lastChain = chain;
            lastNamed = named;
            return named;
        }

        private int[] lookedUp(HostId host, Table table, String chain) {
            while (byIdentity.size() <= table.ordinal()) {
                byIdentity.add(new IdentityHashMap<>());
            }
            Map<String, int[]> chains = byIdentity.get(table.ordinal()).computeIfAbsent(host, h -> new IdentityHashMap<>());
            int[] named = chains.get(chain);
            if (named == null) {
                named = namingChains.getOrDefault(new ChainId(host, table, chain), NAMES_NONE);
                chains.put(chain, named);
            }
            return named;
        }

        @Override
        public void entered(HostId host, Table table, String chain, Packet packet) {
            int[] named = named(host, table, chain);
            if (named.length == 0) {
                return;
            }
            int src = packet.src().bits();
            int dst = packet.dst().bits();
            for (int row : named) {
                // A rule naming the stand-in itself may tell it from any other pod whose address the
                // packet carries instead, and those are too many to list: every pod of the class then.
                if (row == standRow ? carriesAPodAddress(src, dst) : src == stand || dst == stand
                        || src == addresses[row] || dst == addresses[row]) {
                    rows.set(row);
                }
            }
        }

        private boolean carriesAPodAddress(int src, int dst) {
            return src == stand || dst == stand || podAddresses.contains(src) || podAddresses.contains(dst);
        }

        boolean named(SourcePod pod) {
            return rows.get(pod.row());
        }

        boolean any() {
            return !rows.isEmpty();
        }

        /** Forgets what the previous trace entered; the next one is {@code stand}'s. */
        NamedPods tracing(SourcePod stand) {
            rows.clear();
            this.standRow = stand.row();
            this.stand = addresses[stand.row()];
            return this;
        }

        /** Null when no chain of the plan names a pod: a trace then needs no observer at all. */
        ChainObserver orNullWhenUseless() {
            return namingChains.isEmpty() ? null : this;
        }
    }

    static PodTreatment of(ClusterSetPlan plan, List<SourcePod> pods, MultipathMode mode) {
        Scan scan = new Scan();
        for (HostPlan host : plan.hosts().values()) {
            for (DataplanePlan layer : List.of(host.environment(), host.kubeProxy(), host.submariner())) {
                scan.layer(host.id(), layer);
            }
        }
        Map<HostId, Segment.Attachment> nodeSide = nodeSidesOfPodVeths(plan);
        Map<HostId, Map<String, HostId>> podVeths = new HashMap<>();
        nodeSide.forEach((pod, a) -> podVeths.computeIfAbsent(a.host(), k -> new HashMap<>()).put(a.interfaceName(), pod));
        List<Ipv4Prefix> prefixes = List.copyOf(scan.prefixes.keySet());
        List<PodKey> keys = new ArrayList<>();
        // Keyed by the scan's one id object per chain: a pod's address is named in thousands of chains
        // (every node's kube-proxy, in every cluster alike), so equal ids are merged once, at the end.
        Map<ChainId, Rows> naming = new IdentityHashMap<>();
        BitSet namedRows = new BitSet();
        Map<String, String> ownPlans = new HashMap<>();
        // Whether a route naming an address delivers it into the pod of that address its device leads
        // to: the same for every pod of the address (the clusters of a set may all have one), so asked
        // once per route, by the scan's one object per naming.
        Map<Naming.InRoute, Boolean> delivers = new IdentityHashMap<>();
        // The chains naming an address name every pod of it alike (the clusters of a set may reuse
        // their pod CIDRs: ten pods to an address in the benchmarks' set, each address named in some
        // two hundred chains when its pod is a backend), so they are gone through once per address,
        // not once per pod; each pod's loop below then reads the address's other namings only.
        Map<Integer, List<SourcePod>> podsByAddress = new LinkedHashMap<>();
        for (SourcePod pod : pods) {
            podsByAddress.computeIfAbsent(pod.pod().ip().bits(), k -> new ArrayList<>(1)).add(pod);
        }
        Map<Integer, List<Naming>> otherNamings = new HashMap<>();
        podsByAddress.forEach((address, alike) -> {
            List<Naming> others = new ArrayList<>();
            for (Naming n : scan.namings.getOrDefault(address, List.of())) {
                if (!(n instanceof Naming.InChain c)) {
                    others.add(n);
                    continue;
                }
                Rows rows = null;
                for (SourcePod pod : alike) {
                    // What the pod's own namespace says about its address is in its own plan, below.
                    if (!c.host().equals(pod.host())) {
                        if (rows == null) {
                            rows = naming.computeIfAbsent(c.chain(), k -> new Rows());
                        }
                        rows.add(pod.row());
                        namedRows.set(pod.row());
                    }
                }
            }
            otherNamings.put(address, others);
        });
        for (SourcePod pod : pods) {
            Ipv4Address address = pod.pod().ip();
            HostId node = HostId.node(pod.cluster(), pod.pod().node());
            Segment.Attachment veth = nodeSide.get(pod.host());
            Set<Naming> memberships = new HashSet<>(scan.ipSetsHolding(address));
            boolean specific = veth == null;
            for (Naming n : otherNamings.get(address.bits())) {
                // What the pod's own namespace says about its address is in its own plan, below.
                if (n.host().equals(pod.host())) {
                    continue;
                }
                switch (n) {
                    case Naming.InChain c -> {
                        // none here: gone through by address above
                    }
                    case Naming.InRoute r when isDelivery(r, veth) -> {
                        // the pod's own: every pod has one
                    }
                    case Naming.InRoute r when delivers.computeIfAbsent(r, k -> deliversToOwner(r, address, podVeths, plan)) ->
                            memberships.add(new Naming.IntoPod(r.host()));
                    default -> specific = true;
                }
            }
            if (veth != null) {
                for (Naming.ByInterface pattern : scan.interfacePatterns.getOrDefault(node, List.of())) {
                    if (interfaceMatches(pattern.pattern(), veth.interfaceName())) {
                        memberships.add(pattern);
                    }
                }
                // The veth carries the pod's own delivery route and nothing else, as for every pod.
                Set<Ipv4Prefix> over = scan.routedOver.getOrDefault(node, Map.of()).getOrDefault(veth.interfaceName(), Set.of());
                specific |= !Set.of(Ipv4Prefix.host(address)).containsAll(over);
            }
            String own = ownPlan(plan.hosts().get(pod.host()), address);
            keys.add(new PodKey(pod.cluster(), pod.pod().node(), ownPlans.computeIfAbsent(own, k -> k),
                    containing(prefixes, address), Set.copyOf(memberships), specific ? address : null));
        }
        Map<ChainId, int[]> namingChains = new HashMap<>();
        naming.forEach((chain, rows) -> namingChains.merge(chain, rows.toArray(), Rows::concat));
        Optional<String> noClasses = mode != MultipathMode.ALL_BRANCHES
                ? Optional.of("one path per flow is picked by a hash of the source address")
                : scan.sourcePortMatch.or(() -> scan.unevenRange(prefixes));
        EndpointClasses endpoints = noClasses.isPresent() ? null : endpointClasses(plan, pods, keys, scan);
        return new PodTreatment(keys, namingChains, namedRows, noClasses,
                pods.stream().mapToInt(p -> p.pod().ip().bits()).toArray(), endpoints);
    }

    /**
     * The pods that are alike as backends: those of one key that nothing names alone, less any whose
     * address another network namespace of its cluster has too (a packet to it would be delivered
     * there, the same for no other pod of the class); with every chain that names one of them.
     */
    private static EndpointClasses endpointClasses(ClusterSetPlan plan, List<SourcePod> pods, List<PodKey> keys, Scan scan) {
        // By cluster, each pod address and the network namespaces that have it.
        Map<String, Map<Integer, Set<HostId>>> holders = new HashMap<>();
        for (SourcePod pod : pods) {
            holders.computeIfAbsent(pod.cluster(), c -> new HashMap<>()).put(pod.pod().ip().bits(), new HashSet<>());
        }
        for (HostPlan host : plan.hosts().values()) {
            Map<Integer, Set<HostId>> ofCluster = holders.getOrDefault(host.id().cluster(), Map.of());
            for (Interface iface : host.interfaces()) {
                for (Ipv4Address a : iface.addresses()) {
                    Set<HostId> having = ofCluster.get(a.bits());
                    if (having != null) {
                        having.add(host.id());
                    }
                }
            }
        }
        Set<HostId> twice = new HashSet<>();
        for (SourcePod pod : pods) {
            if (!Set.of(pod.host()).equals(holders.get(pod.cluster()).get(pod.pod().ip().bits()))) {
                twice.add(pod.host());
            }
        }
        Map<PodKey, List<SourcePod>> alike = new LinkedHashMap<>();
        for (SourcePod pod : pods) {
            PodKey key = keys.get(pod.row());
            if (key.addressSpecific() == null && !twice.contains(pod.host())) {
                alike.computeIfAbsent(key, k -> new ArrayList<>()).add(pod);
            }
        }
        EndpointClasses.Builder classes = new EndpointClasses.Builder();
        Set<Integer> addresses = new HashSet<>();
        for (List<SourcePod> members : alike.values()) {
            if (members.size() < 2) {
                continue;
            }
            classes.add(members.getFirst().cluster(), members.stream().map(SourcePod::host).toList(),
                    members.stream().mapToInt(p -> p.pod().ip().bits()).toArray());
            members.forEach(p -> addresses.add(p.pod().ip().bits()));
        }
        for (int address : addresses) {
            for (Naming n : scan.namings.getOrDefault(address, List.of())) {
                if (n instanceof Naming.InChain c) {
                    classes.naming(c.chain().host(), c.chain().table(), c.chain().chain(), address);
                }
            }
        }
        return classes.build();
    }

    /**
     * The classes of pods alike as a service's backends, for a counting walk to fold its branches into
     * them (see {@link EndpointClasses}); null when no two pods may share a trace in this plan.
     */
    EndpointClasses endpointClasses() {
        return endpoints;
    }

    /** Rows of pods, growing, as ints. */
    private static final class Rows {

        private int[] items = new int[4];
        private int size;

        void add(int row) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
            }
            items[size++] = row;
        }

        int[] toArray() {
            return Arrays.copyOf(items, size);
        }

        static int[] concat(int[] a, int[] b) {
            int[] both = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, both, a.length, b.length);
            return both;
        }
    }

    /**
     * The node's end of each pod's veth: the one device of the node that belongs to the pod alone, so
     * the route to the pod over it is the pod's own and alike for every pod.
     */
    private static Map<HostId, Segment.Attachment> nodeSidesOfPodVeths(ClusterSetPlan plan) {
        Map<HostId, Segment.Attachment> sides = new HashMap<>();
        for (Segment segment : plan.segments()) {
            if (segment.kind() != Segment.SegmentKind.VETH || segment.attachments().size() != 2) {
                continue;
            }
            Segment.Attachment a = segment.attachments().get(0);
            Segment.Attachment b = segment.attachments().get(1);
            if (a.host().isPod() && !b.host().isPod()) {
                sides.put(a.host(), b);
            } else if (b.host().isPod() && !a.host().isPod()) {
                sides.put(b.host(), a);
            }
        }
        return sides;
    }

    /** Whether the route delivers {@code address} into the pod (any pod) that has it, over that pod's veth. */
    private static boolean deliversToOwner(Naming.InRoute named, Ipv4Address address, Map<HostId, Map<String, HostId>> podVeths,
                                           ClusterSetPlan plan) {
        if (named.route().nexthops().size() != 1) {
            return false;
        }
        String device = named.route().nexthops().getFirst().device();
        HostId pod = podVeths.getOrDefault(named.host(), Map.of()).get(device);
        if (pod == null || plan.hosts().get(pod).interfaces().stream().noneMatch(i -> i.addresses().contains(address))) {
            return false;
        }
        return isDelivery(named, new Segment.Attachment(named.host(), device));
    }

    /**
     * Whether the route is the one into a pod over its veth (of which {@code veth} is the node's end):
     * a route to the address alone out of that device, directly.
     */
    private static boolean isDelivery(Naming.InRoute named, Segment.Attachment veth) {
        Route route = named.route();
        if (veth == null || !named.host().equals(veth.host()) || route.destination().length() != 32
                || route.source().isPresent() || route.nexthopId().isPresent() || route.nexthops().isEmpty()) {
            return false;
        }
        for (Nexthop nh : route.nexthops()) {
            // The route is kept with the address abstracted: a via naming the pod itself reads as the placeholder.
            if (!nh.device().equals(veth.interfaceName()) || nh.via().isPresent() && !nh.via().get().equals(PLACEHOLDER)) {
                return false;
            }
        }
        return true;
    }

    private static boolean interfaceMatches(String pattern, String name) {
        return pattern.endsWith("+") ? name.startsWith(pattern.substring(0, pattern.length() - 1)) : name.equals(pattern);
    }

    private static BitSet containing(List<Ipv4Prefix> prefixes, Ipv4Address address) {
        BitSet bits = new BitSet(prefixes.size());
        for (int i = 0; i < prefixes.size(); i++) {
            if (prefixes.get(i).contains(address)) {
                bits.set(i);
            }
        }
        return bits;
    }

    /**
     * The pod's own namespace as text with its address abstracted: pods whose plans differ otherwise
     * (another route, a sysctl) are not alike. Interface MACs and segment names are the pod's own
     * and matter to no decision.
     */
    private static String ownPlan(HostPlan host, Ipv4Address address) {
        StringBuilder text = new StringBuilder();
        for (Interface iface : host.interfaces()) {
            text.append(iface.name()).append(' ').append(iface.addresses()).append(' ').append(iface.mtu()).append('\n');
        }
        text.append(host.effective());
        return withSelf(text, address.toString());
    }

    /**
     * {@code text} with each whole occurrence of {@code address} written SELF: not preceded by a digit or
     * a dot, nor followed by a digit, so 10.0.0.1 is not found in 110.0.0.1 or 10.0.0.12. A plain scan: it
     * runs for every pod of the set, where a regular expression compiled per pod cost a few percent of
     * {@code check}.
     */
    static String withSelf(CharSequence text, String address) {
        String all = text.toString();
        StringBuilder out = null;
        int copied = 0;
        for (int at = all.indexOf(address); at >= 0; at = all.indexOf(address, at + 1)) {
            int end = at + address.length();
            boolean whole = (at == 0 || !isDigitOrDot(all.charAt(at - 1))) && (end == all.length() || !isDigit(all.charAt(end)));
            if (!whole) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(all.length());
            }
            out.append(all, copied, at).append("SELF");
            copied = end;
            at = end - 1;
        }
        return out == null ? all : out.append(all, copied, all.length()).toString();
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isDigitOrDot(char c) {
        return isDigit(c) || c == '.';
    }

    /** One pass over every host's layers, collecting what names single addresses and what holds many. */
    private static final class Scan {

        final Map<Ipv4Prefix, Boolean> prefixes = new LinkedHashMap<>();
        final Map<Integer, List<Naming>> namings = new HashMap<>();
        final Map<HostId, List<Naming.ByInterface>> interfacePatterns = new HashMap<>();
        /**
         * By host and device, the destinations routed out of it (a policy rule on its packets counts as
         * everything): a pod's veth that carries more than the route to the pod is the pod's own matter.
         */
        final Map<HostId, Map<String, Set<Ipv4Prefix>>> routedOver = new HashMap<>();
        final Map<Ipv4Range, HostId> snatRanges = new LinkedHashMap<>();
        /** Single-address members of every ipset, with their set. */
        final Map<Integer, List<Naming.InIpSet>> setMembers = new HashMap<>();
        /** The network members of every ipset, with their set. */
        final PrefixIndex<Naming.InIpSet> setNetworks = new PrefixIndex<>();
        Optional<String> sourcePortMatch = Optional.empty();

        void layer(HostId host, DataplanePlan layer) {
            for (NetfilterTable table : layer.netfilter()) {
                for (Chain chain : table.chains()) {
                    ChainId id = new ChainId(host, table.table(), chain.name());
                    for (Rule rule : chain.inOrder()) {
                        rule(host, id, rule);
                    }
                }
            }
            for (IpSet set : layer.ipsets()) {
                Naming.InIpSet named = new Naming.InIpSet(host, set.name());
                for (Ipv4Prefix member : set.members()) {
                    if (member.length() == 32) {
                        setMembers.computeIfAbsent(member.network().bits(), k -> new ArrayList<>()).add(named);
                    } else {
                        setNetworks.add(member, named);
                    }
                }
            }
            for (Route route : layer.routes()) {
                route(host, route);
            }
            for (PolicyRule rule : layer.rules()) {
                rule.from().ifPresent(p -> prefix(p, new Naming.InPolicyRule(host, rule)));
                rule.to().ifPresent(p -> prefix(p, new Naming.InPolicyRule(host, rule)));
                rule.inInterface().ifPresent(d -> routedOver(host, d).add(Ipv4Prefix.DEFAULT));
            }
            for (Neighbour n : layer.neighbours()) {
                name(n.address(), new Naming.Elsewhere(host, "neighbour on " + n.device()));
            }
            for (FdbEntry e : layer.fdb()) {
                name(e.destination(), new Naming.Elsewhere(host, "fdb on " + e.device()));
            }
        }

        private void rule(HostId host, ChainId chain, Rule rule) {
            for (Match match : rule.matches()) {
                switch (match) {
                    case Match.Source s -> prefix(s.prefix(), new Naming.InChain(chain));
                    case Match.Destination d -> prefix(d.prefix(), new Naming.InChain(chain));
                    case Match.InInterface i -> pattern(host, chain, i.name());
                    case Match.OutInterface o -> pattern(host, chain, o.name());
                    case Match.SourcePort p -> sourcePortMatch = Optional.of(host + " " + chain.table().iptablesName() + "/"
                            + chain.chain() + " matches a source port, which hashes choose for tunnels and NAT");
                    default -> {
                    }
                }
            }
            switch (rule.target()) {
                case Target.Dnat d -> name(d.toAddress(), new Naming.InChain(chain));
                case Target.Snat s -> {
                    snatRanges.putIfAbsent(s.toSource(), host);
                    if (s.toSource().size() <= LARGEST_RANGE_CHECKED) {
                        for (long i = 0; i < s.toSource().size(); i++) {
                            name(s.toSource().get(i), new Naming.Elsewhere(host, "SNAT range in " + chain.chain()));
                        }
                    }
                }
                default -> {
                }
            }
        }

        private Set<Ipv4Prefix> routedOver(HostId host, String device) {
            return routedOver.computeIfAbsent(host, k -> new HashMap<>()).computeIfAbsent(device, k -> new HashSet<>());
        }

        private void route(HostId host, Route route) {
            for (Nexthop nh : route.nexthops()) {
                routedOver(host, nh.device()).add(route.destination());
            }
            if (route.destination().length() == 32) {
                Ipv4Address a = route.destination().network();
                name(a, new Naming.InRoute(host, abstracted(route, a)));
            } else {
                prefixes.putIfAbsent(route.destination(), Boolean.TRUE);
            }
            route.source().ifPresent(a -> name(a, new Naming.InRoute(host, abstracted(route, a))));
            for (Nexthop nh : route.nexthops()) {
                nh.via().ifPresent(a -> name(a, new Naming.InRoute(host, abstracted(route, a))));
            }
        }

        private void pattern(HostId host, ChainId chain, String pattern) {
            interfacePatterns.computeIfAbsent(host, k -> new ArrayList<>()).add(new Naming.ByInterface(chain, pattern));
        }

        private void prefix(Ipv4Prefix prefix, Naming naming) {
            if (prefix.length() == 32) {
                name(prefix.network(), naming);
            } else {
                prefixes.putIfAbsent(prefix, Boolean.TRUE);
            }
        }

        private void name(Ipv4Address address, Naming naming) {
            namings.computeIfAbsent(address.bits(), k -> new ArrayList<>()).add(naming);
        }

        List<Naming.InIpSet> ipSetsHolding(Ipv4Address address) {
            List<Naming.InIpSet> sets = new ArrayList<>(setMembers.getOrDefault(address.bits(), List.of()));
            setNetworks.holding(address, sets);
            return sets;
        }

        /**
         * A range whose addresses the plan treats differently (one has a route or rule of its own that
         * another lacks, or they fall into different prefixes), or empty. An SNAT picks its address
         * by a hash of the source, so classes need every range to be even.
         */
        Optional<String> unevenRange(List<Ipv4Prefix> allPrefixes) {
            for (Map.Entry<Ipv4Range, HostId> entry : snatRanges.entrySet()) {
                Ipv4Range range = entry.getKey();
                if (range.size() == 1) {
                    continue;
                }
                if (range.size() > LARGEST_RANGE_CHECKED) {
                    return Optional.of("SNAT range " + range + " on " + entry.getValue() + " is too large to compare its addresses");
                }
                Object first = null;
                for (long i = 0; i < range.size(); i++) {
                    Ipv4Address a = range.get(i);
                    Object treatment = List.of(containing(allPrefixes, a), Set.copyOf(namings.getOrDefault(a.bits(), List.of())),
                            Set.copyOf(ipSetsHolding(a)));
                    if (first == null) {
                        first = treatment;
                    } else if (!first.equals(treatment)) {
                        return Optional.of("SNAT range " + range + " on " + entry.getValue() + " treats " + range.first()
                                + " and " + a + " differently");
                    }
                }
            }
            return Optional.empty();
        }

        /** The route with {@code address} replaced by a placeholder wherever it names it. */
        private static Route abstracted(Route route, Ipv4Address address) {
            Ipv4Prefix destination = route.destination().equals(Ipv4Prefix.host(address)) ? Ipv4Prefix.host(PLACEHOLDER)
                    : route.destination();
            Optional<Ipv4Address> source = route.source().map(s -> s.equals(address) ? PLACEHOLDER : s);
            List<Nexthop> nexthops = route.nexthops().stream()
                    .map(nh -> new Nexthop(nh.via().map(v -> v.equals(address) ? PLACEHOLDER : v), nh.device(), nh.weight(), nh.onlink()))
                    .toList();
            return new Route(route.table(), destination, route.type(), nexthops, route.nexthopId(), source, route.metric(),
                    route.protocol());
        }
    }
}
