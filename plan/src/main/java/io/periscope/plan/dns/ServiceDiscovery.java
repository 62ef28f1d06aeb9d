package io.periscope.plan.dns;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.policy.ClusterGraph;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.ServiceRecord;
import io.periscope.plan.dns.ClusterVerdict.Verdict;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The answers of the cluster set's DNS zone, {@code clusterset.local}, as the Multi-Cluster Services
 * API and Lighthouse define them, computed from the plan's {@link ServiceRecord}s. Pure: the DNS
 * server, {@code periscope dns} and the simulator's flow resolution all ask this one resolver.
 *
 * <p>Beyond Lighthouse, it leaves out a cluster whose gateways are all down or which the connectivity
 * policy keeps apart from the asking cluster, and keeps the reason ({@link ClusterVerdict}); when no
 * cluster is left the answer is empty with NOERROR, as Lighthouse answers a service it knows but
 * cannot answer for (NXDOMAIN stays for names of nothing exported). {@link #upstream()} is the
 * same resolver without those two checks, which is what Lighthouse itself would answer. Like
 * Lighthouse, both leave out a cluster whose ClusterSetIP export has no ready backend there (the
 * asking cluster's own included); only a live cluster's {@link PodReadiness} can say so.
 */
public final class ServiceDiscovery {

    public static final String ZONE = "clusterset.local";
    /** Lighthouse's default TTL: answers change with exports and endpoints, so caches must not hold them long. */
    public static final int TTL = 5;
    /** SRV priority and weight as Lighthouse writes them: every target equal. */
    static final int SRV_PRIORITY = 0;
    static final int SRV_WEIGHT = 50;
    private static final String SERVICES = "svc." + ZONE;
    private static final int LISTED = 12;
    /**
     * Why a known service answers nothing. Lighthouse's handler (coredns/plugin/handler.go, getDNSRecord) answers a
     * service it knows but has no record for, no cluster connected or with ready endpoints, with an empty,
     * authoritative NOERROR, not NXDOMAIN; so does Periscope, also when its own checks left every cluster out.
     */
    static final String NOBODY_LEFT = "no cluster is left to answer; the service exists, so the answer is empty (NOERROR), as Lighthouse's";

    /** One cluster's export of a service: its address (ClusterIP) or its pods' (headless), and its ports. */
    record ClusterExport(String cluster, boolean headless, Optional<Ipv4Address> address, List<PodAddress> pods,
                         List<ServicePort> ports) {
        boolean hasAddress() {
            return headless ? !pods.isEmpty() : address.isPresent();
        }

        Optional<ServicePort> port(String name, String protocol) {
            return ports.stream().filter(p -> p.name().isPresent() && p.name().get().equalsIgnoreCase(name)
                    && p.protocol().lowerName().equals(protocol)).findFirst();
        }
    }

    record PodAddress(String pod, Ipv4Address address) {
    }

    /** An exported service with every cluster that exports it, in cluster-set order. */
    record ExportedService(String namespace, String name, List<ClusterExport> exports) {
        Optional<ClusterExport> export(String cluster) {
            return exports.stream().filter(e -> e.cluster().equalsIgnoreCase(cluster)).findFirst();
        }

        String qualifiedName() {
            return namespace + "/" + name;
        }
    }

    private final Map<String, ExportedService> services;
    /** The ClusterSetIP exports with no ready backend, as {@code key(service, namespace) + "@" + cluster}. */
    private final Set<String> unready;
    private final Set<String> namespaces;
    private final ClusterGraph graph;
    private final Set<String> gatewaysDown;
    /** The clusters of the plan; an imported export's cluster outside it has no known gateway. */
    private final Set<String> known;
    private final boolean policyAndHealthAware;
    private final DnsRecord.Authority soa;

    private ServiceDiscovery(Map<String, ExportedService> services, Set<String> unready, ClusterGraph graph, Set<String> gatewaysDown,
                             Set<String> known, boolean policyAndHealthAware) {
        this.services = services;
        this.unready = unready;
        this.known = known;
        this.namespaces = services.values().stream().map(s -> s.namespace().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        this.graph = graph;
        this.gatewaysDown = gatewaysDown;
        this.policyAndHealthAware = policyAndHealthAware;
        // The serial follows the content, so a secondary (or a person) sees that the zone changed.
        this.soa = new DnsRecord.Authority(ZONE, TTL, "ns.dns." + ZONE, "hostmaster." + ZONE,
                Integer.toUnsignedLong((services.values().toString() + new java.util.TreeSet<>(gatewaysDown)
                        + (unready.isEmpty() ? "" : new java.util.TreeSet<>(unready))).hashCode()) % 4_000_000_000L + 1,
                7200, 1800, 86400, TTL);
    }

    /** The resolver for a plan, with the gateways the agents report down. */
    public static ServiceDiscovery of(ClusterSetPlan plan, GatewayHealth health) {
        return of(plan, health, PodReadiness.ALL, List.of());
    }

    /**
     * The resolver of a live cluster: the plan holds the exports of the clusters read in full (this
     * one), with only the pods {@code readiness} calls ready; {@code imported} adds the exports of
     * the clusters known only through the broker, which the plan has no services of. Where the plan
     * and an import name the same cluster's export of a service, the plan's is used.
     */
    public static ServiceDiscovery of(ClusterSetPlan plan, GatewayHealth health, PodReadiness readiness, List<ImportedExport> imported) {
        Set<String> down = new HashSet<>(health.clustersDown());
        for (Cluster cluster : plan.clusterSet().clusters()) {
            if (cluster.gateways().isEmpty()) {
                down.add(cluster.name());
            }
        }
        Set<String> known = plan.clusterSet().clusters().stream().map(Cluster::name).collect(Collectors.toUnmodifiableSet());
        Set<String> unready = new HashSet<>();
        Map<String, ExportedService> services = index(plan, readiness, imported, unready);
        return new ServiceDiscovery(services, Set.copyOf(unready), ClusterGraph.of(plan.clusterSet()), Set.copyOf(down), known, true);
    }

    public static ServiceDiscovery of(ClusterSetPlan plan) {
        return of(plan, GatewayHealth.ALL_UP);
    }

    /** The same zone answered as Lighthouse would: no cluster is left out for policy or gateway health. */
    public ServiceDiscovery upstream() {
        return new ServiceDiscovery(services, unready, graph, gatewaysDown, known, false);
    }

    public DnsRecord.Authority soa() {
        return soa;
    }

    /**
     * Exported services with their clusters, from the plan's records and the cluster set's exports, then the imported ones;
     * adds to {@code unready} the ClusterSetIP exports with no ready backend.
     */
    private static Map<String, ExportedService> index(ClusterSetPlan plan, PodReadiness readiness, List<ImportedExport> imported,
                                                      Set<String> unready) {
        List<String> clusterOrder = plan.clusterSet().clusters().stream().map(Cluster::name).toList();
        Map<String, Map<String, ClusterExportDraft>> drafts = new LinkedHashMap<>();
        Map<String, String[]> names = new LinkedHashMap<>();
        for (ServiceRecord r : plan.serviceRecords()) {
            String key = key(r.service(), r.namespace());
            names.putIfAbsent(key, new String[] {r.namespace(), r.service()});
            ClusterExportDraft draft = drafts.computeIfAbsent(key, k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.cluster(), ClusterExportDraft::new);
            if (r.pod().isPresent()) {
                if (readiness.ready(r.cluster(), r.namespace(), r.service(), r.pod().get())) {
                    draft.pods.add(new PodAddress(r.pod().get(), r.address()));
                }
            } else {
                draft.address = Optional.of(r.address());
                if (!readiness.serviceReady(r.cluster(), r.namespace(), r.service())) {
                    unready.add(key + "@" + r.cluster());
                }
            }
        }
        for (Cluster cluster : plan.clusterSet().clusters()) {
            for (Service service : cluster.services()) {
                if (!cluster.isExported(service)) {
                    continue;
                }
                String key = key(service.name(), service.namespace());
                names.putIfAbsent(key, new String[] {service.namespace(), service.name()});
                ClusterExportDraft draft = drafts.computeIfAbsent(key, k -> new LinkedHashMap<>())
                        .computeIfAbsent(cluster.name(), ClusterExportDraft::new);
                draft.headless = Optional.of(service.headless());
                draft.ports = service.ports();
            }
        }
        Set<String> planned = new HashSet<>();
        drafts.forEach((key, byCluster) -> byCluster.keySet().forEach(cluster -> planned.add(key + "@" + cluster)));
        for (ImportedExport i : imported) {
            String key = key(i.service(), i.namespace());
            if (planned.contains(key + "@" + i.cluster())) {
                continue;
            }
            names.putIfAbsent(key, new String[] {i.namespace(), i.service()});
            ClusterExportDraft draft = drafts.computeIfAbsent(key, k -> new LinkedHashMap<>())
                    .computeIfAbsent(i.cluster(), ClusterExportDraft::new);
            draft.headless = Optional.of(i.headless());
            if (!i.headless() && !i.ready()) {
                unready.add(key + "@" + i.cluster());
            }
            if (draft.address.isEmpty()) {
                draft.address = i.address();
            }
            i.pods().forEach(p -> draft.pods.add(new PodAddress(p.name(), p.address())));
            if (draft.ports.isEmpty()) {
                draft.ports = i.ports();
            }
        }
        Map<String, ExportedService> services = new LinkedHashMap<>();
        drafts.forEach((key, byCluster) -> {
            // Clusters outside the plan (imported only) come after its own, by name.
            List<ClusterExport> exports = byCluster.values().stream()
                    .sorted(java.util.Comparator.comparingInt((ClusterExportDraft d) -> {
                        int i = clusterOrder.indexOf(d.cluster);
                        return i < 0 ? Integer.MAX_VALUE : i;
                    }).thenComparing(d -> clusterOrder.contains(d.cluster) ? "" : d.cluster))
                    .map(ClusterExportDraft::build).toList();
            services.put(key, new ExportedService(names.get(key)[0], names.get(key)[1], exports));
        });
        return services;
    }

    private static final class ClusterExportDraft {
        final String cluster;
        Optional<Boolean> headless = Optional.empty();
        Optional<Ipv4Address> address = Optional.empty();
        final List<PodAddress> pods = new ArrayList<>();
        List<ServicePort> ports = List.of();

        ClusterExportDraft(String cluster) {
            this.cluster = cluster;
        }

        ClusterExport build() {
            // Without the Service itself (a hand-built plan), pod records alone mean headless.
            boolean isHeadless = headless.orElse(address.isEmpty() && !pods.isEmpty());
            return new ClusterExport(cluster, isHeadless, address, List.copyOf(pods), ports);
        }
    }

    private static String key(String service, String namespace) {
        return service.toLowerCase(Locale.ROOT) + "." + namespace.toLowerCase(Locale.ROOT);
    }

    /**
     * The answer a client in {@code askingCluster} gets for {@code name} and the record type
     * {@code type} (a {@link DnsRecord} type code). Names match case-insensitively; owner names in the
     * answer are written as asked.
     *
     * @param askingCluster the client's cluster; empty for a client outside every cluster (no own export
     *                      to prefer, no policy to apply)
     */
    public DnsAnswer answer(String name, int type, Optional<String> askingCluster, Rotation rotation) {
        String owner = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        String lower = owner.toLowerCase(Locale.ROOT);
        Question q = new Question(owner, type, askingCluster, soa);
        if (!lower.equals(ZONE) && !lower.endsWith("." + ZONE)) {
            return new DnsAnswer(owner, type, Rcode.REFUSED, List.of(), List.of(), List.of(), List.of(),
                    Optional.of("this server answers for " + ZONE + " only"));
        }
        if (lower.equals(ZONE)) {
            return type == DnsRecord.SOA || type == DnsRecord.ANY
                    ? new DnsAnswer(owner, type, Rcode.NOERROR, List.of(soa), List.of(), List.of(), List.of(), Optional.empty())
                    : q.noData(List.of(), Optional.of("the zone's apex has only its SOA record"));
        }
        if (lower.equals(SERVICES)) {
            return services.isEmpty() ? q.nxdomain(List.of(), "no cluster exports any service")
                    : q.noData(List.of(), Optional.of("names of services sit below " + SERVICES));
        }
        if (!lower.endsWith("." + SERVICES)) {
            return q.nxdomain(List.of(), "names in " + ZONE + " are service.namespace." + SERVICES + ", cluster.service.namespace."
                    + SERVICES + ", pod.cluster.service.namespace." + SERVICES + " or _port._protocol.service.namespace." + SERVICES);
        }
        String[] labels = lower.substring(0, lower.length() - SERVICES.length() - 1).split("\\.", -1);
        int n = labels.length;
        String namespace = labels[n - 1];
        if (n == 1) {
            return namespaces.contains(namespace) ? q.noData(List.of(), Optional.of("a namespace; services sit below it"))
                    : q.nxdomain(List.of(), "no cluster exports a service of namespace " + namespace);
        }
        String service = labels[n - 2];
        boolean firstIsPort = labels[0].startsWith("_");
        return switch (n) {
            case 2 -> service(q, service, namespace, Optional.empty(), Optional.empty(), Optional.empty(), rotation);
            case 3 -> firstIsPort
                    ? protocolNode(q, service, namespace, Optional.empty(), labels[0])
                    : service(q, service, namespace, Optional.of(labels[0]), Optional.empty(), Optional.empty(), rotation);
            case 4 -> firstIsPort && labels[1].startsWith("_")
                    ? service(q, service, namespace, Optional.empty(), Optional.empty(), Optional.of(new PortName(labels[0], labels[1])), rotation)
                    : firstIsPort
                    ? protocolNode(q, service, namespace, Optional.of(labels[1]), labels[0])
                    : service(q, service, namespace, Optional.of(labels[1]), Optional.of(labels[0]), Optional.empty(), rotation);
            case 5 -> firstIsPort && labels[1].startsWith("_")
                    ? service(q, service, namespace, Optional.of(labels[2]), Optional.empty(), Optional.of(new PortName(labels[0], labels[1])), rotation)
                    : q.nxdomain(List.of(), "five labels before " + SERVICES + " are only _port._protocol.cluster.service.namespace");
            default -> q.nxdomain(List.of(), n + " labels before " + SERVICES + " name nothing");
        };
    }

    /** {@code _port._protocol} as asked, without the underscores. */
    private record PortName(String port, String protocol) {
        PortName(String port, String protocol) {
            this.port = port.substring(1);
            this.protocol = protocol.substring(1);
        }
    }

    /** A question being answered; negative answers carry the zone's SOA (RFC 2308) so resolvers know how long to cache them. */
    private record Question(String owner, int type, Optional<String> asking, DnsRecord.Authority soa) {
        DnsAnswer nxdomain(List<ClusterVerdict> clusters, String note) {
            return new DnsAnswer(owner, type, Rcode.NXDOMAIN, List.of(), List.of(soa), List.of(), clusters, Optional.of(note));
        }

        DnsAnswer noData(List<ClusterVerdict> clusters, Optional<String> note) {
            return new DnsAnswer(owner, type, Rcode.NOERROR, List.of(), List.of(soa), List.of(), clusters, note);
        }
    }

    /** {@code _protocol.service.namespace} (or with a cluster): exists only as the parent of port names. */
    private DnsAnswer protocolNode(Question q, String service, String namespace, Optional<String> cluster, String protocol) {
        ExportedService exported = services.get(key(service, namespace));
        boolean exists = exported != null && exported.exports().stream()
                .filter(e -> cluster.isEmpty() || e.cluster().equalsIgnoreCase(cluster.get()))
                .anyMatch(e -> e.ports().stream().anyMatch(p -> p.name().isPresent() && ("_" + p.protocol().lowerName()).equals(protocol)));
        return exists ? q.noData(List.of(), Optional.of("the parent of SRV names; ask _port." + protocol + "." + service + "." + namespace + "."
                + SERVICES)) : q.nxdomain(List.of(), "no named " + protocol.substring(1) + " port of " + namespace + "/" + service);
    }

    private DnsAnswer service(Question q, String service, String namespace, Optional<String> cluster, Optional<String> pod,
                              Optional<PortName> port, Rotation rotation) {
        ExportedService exported = services.get(key(service, namespace));
        if (exported == null) {
            return q.nxdomain(List.of(), "no cluster exports service " + namespace + "/" + service + " (exported: " + exported() + ")");
        }
        List<ClusterExport> considered = exported.exports();
        if (cluster.isPresent()) {
            Optional<ClusterExport> only = exported.export(cluster.get());
            if (only.isEmpty()) {
                return q.nxdomain(List.of(), "cluster " + cluster.get() + " does not export " + exported.qualifiedName() + " (exported by: "
                        + listed(considered.stream().map(ClusterExport::cluster).toList()) + ")");
            }
            considered = List.of(only.get());
        }
        if (pod.isPresent()) {
            ClusterExport export = considered.getFirst();
            Optional<PodAddress> match = export.pods().stream().filter(p -> p.pod().equalsIgnoreCase(pod.get())).findFirst();
            if (match.isEmpty()) {
                return q.nxdomain(List.of(), exported.qualifiedName() + " of cluster " + export.cluster() + " has no headless pod '" + pod.get()
                        + "' (pods: " + listed(export.pods().stream().map(PodAddress::pod).toList()) + ")");
            }
            Verdict verdict = verdict(exported, export, q.asking(), true);
            List<ClusterVerdict> verdicts = List.of(new ClusterVerdict(export.cluster(), verdict));
            if (!verdict.eligible()) {
                return q.noData(verdicts, Optional.of(NOBODY_LEFT));
            }
            return q.type() == DnsRecord.A || q.type() == DnsRecord.ANY
                    ? positive(q, verdicts, List.of(new DnsRecord.Address(q.owner(), TTL, match.get().address())), List.of())
                    : q.noData(verdicts, Optional.of("a pod's name has only its A record"));
        }
        List<ClusterExport> candidates = considered;
        if (port.isPresent()) {
            candidates = considered.stream().filter(e -> e.port(port.get().port(), port.get().protocol()).isPresent()).toList();
            if (candidates.isEmpty()) {
                return q.nxdomain(List.of(), exported.qualifiedName() + " has no " + port.get().protocol() + " port named '" + port.get().port()
                        + "'" + cluster.map(c -> " in cluster " + c).orElse(""));
            }
        }
        Map<ClusterExport, Verdict> verdicts = new LinkedHashMap<>();
        for (ClusterExport export : candidates) {
            verdicts.put(export, verdict(exported, export, q.asking(), cluster.isPresent()));
        }
        List<ClusterExport> eligible = candidates.stream().filter(e -> verdicts.get(e).eligible()).toList();
        if (eligible.isEmpty()) {
            return q.noData(verdicts(verdicts), Optional.of(NOBODY_LEFT));
        }
        Optional<ClusterExport> own = eligible.stream().filter(e -> q.asking().isPresent() && e.cluster().equals(q.asking().get())).findFirst();
        ClusterExport preferred = own.orElse(eligible.getFirst());
        List<ClusterExport> answering;
        if (preferred.headless()) {
            // A headless service answers with every ready pod, the asking cluster's own first.
            answering = new ArrayList<>();
            answering.add(preferred);
            eligible.stream().filter(e -> e != preferred && e.headless()).forEach(answering::add);
            eligible.stream().filter(e -> !e.headless()).forEach(e -> verdicts.put(e, Verdict.NOT_THIS_TURN));
        } else if (own.isPresent()) {
            answering = List.of(preferred);
            eligible.stream().filter(e -> e != preferred).forEach(e -> verdicts.put(e, Verdict.NOT_PREFERRED));
        } else {
            List<ClusterExport> rotating = eligible.stream().filter(e -> !e.headless()).toList();
            ClusterExport chosen = rotating.get(Math.floorMod(rotation.pick(key(service, namespace), rotating.size()), rotating.size()));
            answering = List.of(chosen);
            eligible.stream().filter(e -> e != chosen).forEach(e -> verdicts.put(e, Verdict.NOT_THIS_TURN));
        }
        List<DnsRecord> answers = new ArrayList<>();
        List<DnsRecord> additionals = new ArrayList<>();
        String base = exported.name() + "." + exported.namespace() + "." + SERVICES;
        boolean srvName = port.isPresent();
        if (q.type() == DnsRecord.SRV) {
            for (ClusterExport export : answering) {
                List<ServicePort> ports = port.map(p -> List.of(export.port(p.port(), p.protocol()).orElseThrow())).orElse(export.ports());
                for (ServicePort p : ports) {
                    if (export.headless()) {
                        // Clients of a headless service connect to the pods themselves, so the port is where they listen.
                        for (PodAddress pa : export.pods()) {
                            String target = pa.pod() + "." + export.cluster() + "." + base;
                            answers.add(new DnsRecord.Location(q.owner(), TTL, SRV_PRIORITY, SRV_WEIGHT, p.targetPort(), target));
                            additionals.add(new DnsRecord.Address(target, TTL, pa.address()));
                        }
                    } else {
                        String target = export.cluster() + "." + base;
                        answers.add(new DnsRecord.Location(q.owner(), TTL, SRV_PRIORITY, SRV_WEIGHT, p.port(), target));
                        additionals.add(new DnsRecord.Address(target, TTL, export.address().orElseThrow()));
                    }
                }
            }
        } else if (!srvName && (q.type() == DnsRecord.A || q.type() == DnsRecord.ANY)) {
            for (ClusterExport export : answering) {
                if (export.headless()) {
                    export.pods().forEach(pa -> answers.add(new DnsRecord.Address(q.owner(), TTL, pa.address())));
                } else {
                    answers.add(new DnsRecord.Address(q.owner(), TTL, export.address().orElseThrow()));
                }
            }
        }
        if (answers.isEmpty()) {
            return q.noData(verdicts(verdicts), Optional.of(srvName ? "a port's name has only SRV records"
                    : q.type() == DnsRecord.SRV ? "the service has no ports to name" : "a service's name has A and SRV records only"));
        }
        return positive(q, verdicts(verdicts), answers, additionals.stream().distinct().toList());
    }

    private DnsAnswer positive(Question q, List<ClusterVerdict> verdicts, List<DnsRecord> answers, List<DnsRecord> additionals) {
        return new DnsAnswer(q.owner(), q.type(), Rcode.NOERROR, answers, List.of(), additionals, verdicts, Optional.empty());
    }

    private static List<ClusterVerdict> verdicts(Map<ClusterExport, Verdict> verdicts) {
        return verdicts.entrySet().stream().map(e -> new ClusterVerdict(e.getKey().cluster(), e.getValue())).toList();
    }

    /**
     * Whether the asking cluster can use this cluster's export at all; {@link Verdict#ANSWERS} when nothing keeps it out.
     *
     * @param clusterQualified the name named the cluster ({@code cluster.service.namespace...}): Lighthouse then answers
     *                         that cluster's record whether or not its endpoints are ready (resolver.go,
     *                         getClusterIPRecord: "If a clusterID is specified, we supply it even if the service is not
     *                         healthy"), so only Periscope's own checks of policy and gateways apply
     */
    private Verdict verdict(ExportedService service, ClusterExport export, Optional<String> asking, boolean clusterQualified) {
        boolean own = asking.isPresent() && asking.get().equals(export.cluster());
        if (policyAndHealthAware && !own) {
            if (asking.isPresent() && gatewaysDown.contains(asking.get())) {
                return Verdict.OWN_GATEWAYS_DOWN;
            }
            if (!known.contains(export.cluster())) {
                // Imported from a cluster with no Endpoint here: no gateway to reach it, and no labels to judge a policy by.
                return Verdict.GATEWAYS_DOWN;
            }
            if (asking.isPresent() && !graph.connected(asking.get(), export.cluster())) {
                return Verdict.KEPT_APART;
            }
            if (gatewaysDown.contains(export.cluster())) {
                return Verdict.GATEWAYS_DOWN;
            }
        }
        if (!export.hasAddress()) {
            return Verdict.NO_ADDRESS;
        }
        // Lighthouse answers a ClusterSetIP service from the clusters where it has a ready endpoint only, its own too:
        // an address with nothing ready behind it would take the client's connection nowhere.
        boolean ready = export.headless() || clusterQualified
                || !unready.contains(key(service.name(), service.namespace()) + "@" + export.cluster());
        return ready ? Verdict.ANSWERS : Verdict.NO_READY_ENDPOINTS;
    }

    /** Every name of the zone that has records (services, clusters' exports, headless pods, named ports). */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (ExportedService s : services.values()) {
            String base = s.name() + "." + s.namespace() + "." + SERVICES;
            names.add(base);
            Set<String> portNames = new java.util.LinkedHashSet<>();
            for (ClusterExport e : s.exports()) {
                names.add(e.cluster() + "." + base);
                e.pods().forEach(p -> names.add(p.pod() + "." + e.cluster() + "." + base));
                for (ServicePort p : e.ports()) {
                    p.name().ifPresent(pn -> {
                        portNames.add("_" + pn + "._" + p.protocol().lowerName() + "." + base);
                        names.add("_" + pn + "._" + p.protocol().lowerName() + "." + e.cluster() + "." + base);
                    });
                }
            }
            names.addAll(portNames);
        }
        return names;
    }

    /** The exported services and their clusters, for messages. */
    private String exported() {
        if (services.isEmpty()) {
            return "none";
        }
        return services.values().stream().limit(LISTED)
                .map(s -> s.qualifiedName() + " in " + s.exports().stream().map(ClusterExport::cluster).collect(Collectors.joining(", ")))
                .collect(Collectors.joining("; ")) + (services.size() > LISTED ? "; ..." : "");
    }

    private static String listed(List<String> all) {
        if (all.isEmpty()) {
            return "none";
        }
        return all.stream().limit(LISTED).collect(Collectors.joining(", ")) + (all.size() > LISTED ? ", ..." : "");
    }
}
