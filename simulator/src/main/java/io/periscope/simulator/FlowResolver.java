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
import io.periscope.plan.dns.DnsAnswer;
import io.periscope.plan.dns.DnsRecord;
import io.periscope.plan.dns.Rotation;
import io.periscope.plan.dns.ServiceDiscovery;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Turns a flow as the user wrote it into the host, addresses and ports the dataplane needs. DNS names
 * are answered from the plan's {@link ServiceRecord}s by {@link ServiceDiscovery}, as the DNS server
 * answers them: {@code svc.ns.svc.clusterset.local} by the source's own cluster when it exports the
 * service, else by the first exporting cluster in cluster order; {@code cluster.svc.ns.svc.clusterset.local}
 * by that cluster; {@code pod.cluster.svc.ns.svc.clusterset.local} for a pod of a headless service.
 */
public final class FlowResolver {

    private static final String DNS_SUFFIX = ".svc.clusterset.local";
    private static final int LISTED = 12;

    private final ClusterSetPlan plan;
    private final ServiceDiscovery discovery;

    public FlowResolver(ClusterSetPlan plan) {
        this.plan = plan;
        this.discovery = ServiceDiscovery.of(plan);
    }

    /** @throws NameNotAnswered when the flow's DNS name gets no answer, a fair question whose answer is unreachable */
    public ResolvedFlow resolve(Flow flow) throws FlowResolutionException {
        ResolvedFlow resolved = resolve(flow.name(), flow.from(), flow.to(), flow.protocol());
        return flow.size().isPresent() ? resolved.withSize(flow.size().getAsInt()) : resolved;
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

    /**
     * The address a client in {@code sourceCluster} gets for {@code name}: the first A record of the
     * cluster set's resolver ({@link ServiceDiscovery}, the same one the DNS server answers from),
     * rotation at its first turn. When the resolver leaves every cluster out (the connectivity policy
     * keeps them apart, or their gateways are down) the client would get an empty answer; a trace then follows
     * the address Lighthouse itself would have answered, so that it still shows what the network does
     * to such a packet.
     */
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
        DnsAnswer answer = discovery.answer(name, DnsRecord.A, Optional.of(sourceCluster), Rotation.FIRST);
        if (answer.addresses().isEmpty() && answer.leftOut()) {
            answer = discovery.upstream().answer(name, DnsRecord.A, Optional.of(sourceCluster), Rotation.FIRST);
        }
        if (answer.addresses().isEmpty()) {
            throw unanswered(prefix, "nothing answers '" + name + "': " + answer.note().orElse(answer.rcode() + " for an A record"));
        }
        return answer.addresses().getFirst();
    }

    private static NameNotAnswered unanswered(String prefix, String answerMissing) {
        return new NameNotAnswered(prefix + answerMissing, answerMissing);
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
