package io.periscope.simulator;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostId;
import io.periscope.plan.ServiceRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Turns a flow as the user wrote it into the host, addresses and ports the dataplane needs. DNS names
 * are answered from the plan's {@link ServiceRecord}s as Lighthouse would: {@code svc.ns.svc.clusterset.local}
 * by the source's own cluster when it exports the service, else by the first exporting cluster in
 * cluster order; {@code cluster.svc.ns.svc.clusterset.local} by that cluster;
 * {@code pod.cluster.svc.ns.svc.clusterset.local} for a pod of a headless service.
 */
public final class FlowResolver {

    private static final String DNS_SUFFIX = ".svc.clusterset.local";
    private static final int LISTED = 12;

    private final ClusterSetPlan plan;

    public FlowResolver(ClusterSetPlan plan) {
        this.plan = plan;
    }

    /** @throws NameNotAnswered when the flow's DNS name gets no answer, a fair question whose answer is unreachable */
    public ResolvedFlow resolve(Flow flow) throws FlowResolutionException {
        return resolve(flow.name(), flow.from(), flow.to(), flow.protocol());
    }

    /** @param name the flow's name, for messages */
    public ResolvedFlow resolve(String name, FlowSource from, FlowTarget to, Protocol protocol) throws FlowResolutionException {
        String prefix = "flow '" + name + "': ";
        HostId host;
        Optional<Ipv4Address> sourceIp;
        Cluster cluster = cluster(prefix, from.cluster());
        switch (from) {
            case FlowSource.PodSource p -> {
                Pod pod = pod(prefix, cluster, p.namespace(), p.pod());
                if (pod.hostNetwork()) {
                    // A host-network pod is its node's namespace: the node's routing picks the source.
                    host = HostId.node(cluster.name(), pod.node());
                    sourceIp = Optional.empty();
                } else {
                    host = HostId.pod(cluster.name(), pod.namespace(), pod.name());
                    sourceIp = Optional.of(pod.ip());
                }
            }
            case FlowSource.NodeSource n -> {
                if (cluster.node(n.node()).isEmpty()) {
                    throw new FlowResolutionException(prefix + "cluster " + cluster.name() + " has no node '" + n.node()
                            + "' (nodes: " + names(cluster.nodes().stream().map(x -> x.name()).toList()) + ")");
                }
                host = HostId.node(cluster.name(), n.node());
                sourceIp = Optional.empty();
            }
        }
        if (plan.host(host).isEmpty()) {
            throw new FlowResolutionException(prefix + "the plan has no host " + host + " to send from");
        }
        Ipv4Address destination = switch (to) {
            case FlowTarget.AddressTarget a -> a.address();
            case FlowTarget.PodTarget p -> pod(prefix, cluster(prefix, p.cluster()), p.namespace(), p.pod()).ip();
            case FlowTarget.DnsTarget d -> answer(prefix, d.name(), cluster.name());
        };
        return new ResolvedFlow(host, sourceIp, destination, protocol.hasPorts() ? to.port() : 0, protocol);
    }

    /** The address Lighthouse answers for {@code name} to a client in {@code sourceCluster}. */
    public Ipv4Address answer(String prefix, String name, String sourceCluster) throws FlowResolutionException {
        String fqdn = name.toLowerCase(Locale.ROOT);
        if (fqdn.endsWith(".")) {
            fqdn = fqdn.substring(0, fqdn.length() - 1);
        }
        if (!fqdn.endsWith(DNS_SUFFIX)) {
            throw new FlowResolutionException(prefix + "'" + name + "' is not a clusterset name; expected"
                    + " service.namespace" + DNS_SUFFIX + ", cluster.service.namespace" + DNS_SUFFIX + " or"
                    + " pod.cluster.service.namespace" + DNS_SUFFIX);
        }
        String[] labels = fqdn.substring(0, fqdn.length() - DNS_SUFFIX.length()).split("\\.", -1);
        if (labels.length < 2 || labels.length > 4) {
            throw new FlowResolutionException(prefix + "'" + name + "' has " + labels.length + " labels before "
                    + DNS_SUFFIX + "; expected service.namespace, cluster.service.namespace or pod.cluster.service.namespace");
        }
        String namespace = labels[labels.length - 1];
        String service = labels[labels.length - 2];
        Map<String, List<ServiceRecord>> byCluster = new LinkedHashMap<>();
        for (Cluster c : plan.clusterSet().clusters()) {
            for (ServiceRecord r : plan.serviceRecords()) {
                if (r.cluster().equals(c.name()) && r.namespace().equals(namespace) && r.service().equals(service)) {
                    byCluster.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(r);
                }
            }
        }
        if (byCluster.isEmpty()) {
            throw unanswered(prefix, "nothing answers '" + name + "': no cluster exports service "
                    + namespace + "/" + service + " (exported: " + exported() + ")");
        }
        if (labels.length == 2) {
            List<ServiceRecord> records = byCluster.getOrDefault(sourceCluster, byCluster.values().iterator().next());
            return serviceAddress(records);
        }
        String cluster = labels[labels.length - 3];
        List<ServiceRecord> records = byCluster.get(cluster);
        if (records == null) {
            throw unanswered(prefix, "nothing answers '" + name + "': cluster " + cluster
                    + " does not export " + namespace + "/" + service + " (exported by: " + names(List.copyOf(byCluster.keySet())) + ")");
        }
        if (labels.length == 3) {
            return serviceAddress(records);
        }
        String pod = labels[0];
        for (ServiceRecord r : records) {
            if (r.pod().isPresent() && r.pod().get().equals(pod)) {
                return r.address();
            }
        }
        throw unanswered(prefix, "nothing answers '" + name + "': " + namespace + "/" + service
                + " of cluster " + cluster + " has no headless pod '" + pod + "' (pods: "
                + names(records.stream().flatMap(r -> r.pod().stream()).toList()) + ")");
    }

    private static NameNotAnswered unanswered(String prefix, String answerMissing) {
        return new NameNotAnswered(prefix + answerMissing, answerMissing);
    }

    /** The service's own address, or for a headless service (pod records only) its first pod's. */
    private static Ipv4Address serviceAddress(List<ServiceRecord> records) {
        for (ServiceRecord r : records) {
            if (r.pod().isEmpty()) {
                return r.address();
            }
        }
        return records.getFirst().address();
    }

    private String exported() {
        Map<String, List<String>> services = new LinkedHashMap<>();
        for (ServiceRecord r : plan.serviceRecords()) {
            List<String> clusters = services.computeIfAbsent(r.namespace() + "/" + r.service(), k -> new ArrayList<>());
            if (!clusters.contains(r.cluster())) {
                clusters.add(r.cluster());
            }
        }
        if (services.isEmpty()) {
            return "none";
        }
        return services.entrySet().stream().limit(LISTED).map(e -> e.getKey() + " in " + String.join(", ", e.getValue()))
                .collect(Collectors.joining("; ")) + (services.size() > LISTED ? "; ..." : "");
    }

    private Cluster cluster(String prefix, String name) throws FlowResolutionException {
        Optional<Cluster> cluster = plan.clusterSet().cluster(name);
        if (cluster.isEmpty()) {
            throw new FlowResolutionException(prefix + "there is no cluster '" + name + "' (clusters: "
                    + names(plan.clusterSet().clusters().stream().map(Cluster::name).toList()) + ")");
        }
        return cluster.get();
    }

    private static Pod pod(String prefix, Cluster cluster, String namespace, String name) throws FlowResolutionException {
        Optional<Pod> pod = cluster.pod(namespace, name);
        if (pod.isEmpty()) {
            throw new FlowResolutionException(prefix + "cluster " + cluster.name() + " has no pod " + namespace + "/" + name
                    + " (pods: " + names(cluster.pods().stream().map(Pod::qualifiedName).toList()) + ")");
        }
        return pod.get();
    }

    private static String names(List<String> all) {
        if (all.isEmpty()) {
            return "none";
        }
        return all.stream().limit(LISTED).collect(Collectors.joining(", ")) + (all.size() > LISTED ? ", ..." : "");
    }
}
