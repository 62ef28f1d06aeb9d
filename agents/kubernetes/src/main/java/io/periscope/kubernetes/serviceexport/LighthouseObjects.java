package io.periscope.kubernetes.serviceexport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.periscope.kubernetes.broker.BrokerSync;
import io.periscope.kubernetes.crd.LighthouseApi;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.crd.ServiceImportSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.model.topology.ServicePort;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The objects an export becomes, in Lighthouse's format (the labels of {@link LighthouseApi}), so
 * that the DNS server of every other cluster reads them as it reads Lighthouse's own:
 * <ul>
 *   <li>on the broker, per exporting cluster and service, a ServiceImport (type, ports, and for a
 *       ClusterSetIP service its one address in {@code ips}) and an EndpointSlice, both named
 *       {@code <service>-<namespace>-<cluster>} and labelled with the cluster they came from;</li>
 *   <li>in each other cluster, the slice copied into the service's namespace as
 *       {@code <service>-<cluster>}, and one ServiceImport per service named after it, merged from
 *       every exporting cluster's (the MCS API's one import per service).</li>
 * </ul>
 * A ClusterSetIP slice holds one endpoint, the service's address, ready when the service has a
 * ready endpoint where it runs, with the service's ports; a headless slice one endpoint per pod,
 * named by its {@code hostname}, with the pod's readiness and the ports the pods listen on. Pure.
 */
final class LighthouseObjects {

    static final String IPV4 = "IPv4";

    private LighthouseObjects() {
    }

    static String brokerName(String namespace, String service, String cluster) {
        return service + "-" + namespace + "-" + cluster;
    }

    static ServiceImport brokerImport(String cluster, String brokerNamespace, LocalExport export) {
        ServiceImport serviceImport = new ServiceImport();
        serviceImport.setMetadata(new ObjectMetaBuilder().withName(brokerName(export.namespace(), export.service(), cluster))
                .withNamespace(brokerNamespace).withLabels(brokerLabels(cluster, export, false)).build());
        List<ServiceImportSpec.ServiceImportPort> ports = export.ports().stream().map(LighthouseObjects::importPort).toList();
        serviceImport.setSpec(new ServiceImportSpec(export.headless() ? ServiceImportSpec.HEADLESS : ServiceImportSpec.CLUSTER_SET_IP, ports,
                export.address().map(a -> List.of(a.toString())).orElse(List.of())));
        return serviceImport;
    }

    static EndpointSlice brokerSlice(String cluster, String brokerNamespace, LocalExport export) {
        List<Endpoint> endpoints = new ArrayList<>();
        export.address().ifPresent(a -> endpoints.add(new EndpointBuilder().withAddresses(a.toString())
                .withNewConditions().withReady(export.ready()).endConditions().build()));
        for (LocalExport.Backend pod : export.pods()) {
            endpoints.add(new EndpointBuilder().withAddresses(pod.address().toString()).withHostname(pod.pod())
                    .withNewConditions().withReady(pod.ready()).endConditions().build());
        }
        // Clients of a ClusterSetIP service connect to its address and port, those of a headless one to the pods.
        List<EndpointPort> ports = export.ports().stream().map(p -> new EndpointPortBuilder().withName(p.name().orElse(""))
                .withPort(export.headless() ? p.targetPort() : p.port()).withProtocol(p.protocol().name()).build()).toList();
        return new EndpointSliceBuilder().withMetadata(new ObjectMetaBuilder().withName(brokerName(export.namespace(), export.service(), cluster))
                        .withNamespace(brokerNamespace).withLabels(brokerLabels(cluster, export, true)).build())
                .withAddressType(IPV4).withEndpoints(endpoints).withPorts(ports).build();
    }

    /** Another cluster's slice as this cluster keeps it: in the service's namespace, marked as a broker copy. */
    static Optional<EndpointSlice> clusterSlice(EndpointSlice brokerSlice) {
        Map<String, String> labels = labels(brokerSlice);
        String cluster = labels.get(LighthouseApi.SOURCE_CLUSTER_LABEL);
        String service = labels.get(LighthouseApi.SERVICE_NAME_LABEL);
        String namespace = labels.get(LighthouseApi.SOURCE_NAMESPACE_LABEL);
        if (cluster == null || service == null || namespace == null) {
            return Optional.empty();
        }
        return Optional.of(new EndpointSliceBuilder().withMetadata(new ObjectMetaBuilder().withName(service + "-" + cluster)
                        .withNamespace(namespace).withLabels(forCluster(labels)).build())
                .withAddressType(brokerSlice.getAddressType()).withEndpoints(brokerSlice.getEndpoints()).withPorts(brokerSlice.getPorts()).build());
    }

    /**
     * One service's import as this cluster keeps it, merged from the exporting clusters' imports on
     * the broker: the type of the first cluster by name (the MCS API leaves a conflict to the
     * implementation; Periscope's is stable and visible), the union of the ports, no cluster-set IP
     * (each cluster's address is in its slice, and the DNS server answers those).
     */
    static ServiceImport clusterImport(String namespace, String service, List<ServiceImport> brokerImports) {
        List<ServiceImport> sorted = brokerImports.stream()
                .sorted(Comparator.comparing((ServiceImport i) -> labels(i).getOrDefault(LighthouseApi.SOURCE_CLUSTER_LABEL, ""))).toList();
        String type = sorted.stream().map(ServiceImport::getSpec).filter(Objects::nonNull).map(ServiceImportSpec::type).filter(Objects::nonNull)
                .findFirst().orElse(ServiceImportSpec.CLUSTER_SET_IP);
        Map<String, ServiceImportSpec.ServiceImportPort> ports = new LinkedHashMap<>();
        for (ServiceImport i : sorted) {
            if (i.getSpec() != null) {
                i.getSpec().ports().forEach(p -> ports.putIfAbsent(p.name() + "/" + p.protocol() + "/" + p.port(), p));
            }
        }
        ServiceImport merged = new ServiceImport();
        merged.setMetadata(new ObjectMetaBuilder().withName(service).withNamespace(namespace)
                .withLabels(Map.of(SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true")).build());
        merged.setSpec(new ServiceImportSpec(type, List.copyOf(ports.values()), List.of()));
        return merged;
    }

    /** The namespace and service a broker object stands for, {@code namespace/service}; empty when it lacks the labels. */
    static Optional<String> exportedService(HasMetadata brokerObject) {
        Map<String, String> labels = labels(brokerObject);
        String service = labels.get(LighthouseApi.SERVICE_NAME_LABEL);
        String namespace = labels.get(LighthouseApi.SOURCE_NAMESPACE_LABEL);
        return service == null || namespace == null ? Optional.empty() : Optional.of(namespace + "/" + service);
    }

    static Map<String, String> labels(HasMetadata object) {
        return object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
    }

    private static Map<String, String> brokerLabels(String cluster, LocalExport export, boolean slice) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LighthouseApi.SERVICE_NAME_LABEL, export.service());
        labels.put(LighthouseApi.SOURCE_NAMESPACE_LABEL, export.namespace());
        labels.put(LighthouseApi.SOURCE_CLUSTER_LABEL, cluster);
        labels.put(BrokerSync.ORIGIN_LABEL, cluster);
        if (slice) {
            labels.put(LighthouseApi.MANAGED_BY_LABEL, LighthouseApi.MANAGED_BY_LIGHTHOUSE);
        }
        return labels;
    }

    private static Map<String, String> forCluster(Map<String, String> brokerLabels) {
        Map<String, String> labels = new LinkedHashMap<>(brokerLabels);
        labels.remove(BrokerSync.ORIGIN_LABEL);
        labels.put(SubmarinerApi.SYNCED_FROM_BROKER_LABEL, "true");
        return labels;
    }

    private static ServiceImportSpec.ServiceImportPort importPort(ServicePort port) {
        return new ServiceImportSpec.ServiceImportPort(port.name().orElse(null), port.protocol().name(), null, port.port());
    }
}
