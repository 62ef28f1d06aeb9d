package io.periscope.kubernetes.dns;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.periscope.kubernetes.crd.LighthouseApi;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.crd.ServiceImportSpec;
import io.periscope.kubernetes.modelbuilder.ModelProblem;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.ServicePort;
import io.periscope.plan.dns.ImportedExport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The exports of other clusters, read the way Lighthouse's resolver reads them: a ServiceImport in
 * the service's namespace, named after the service, gives its type and ports; each exporting
 * cluster's EndpointSlice (labelled with the source cluster, the service and its namespace, see
 * {@link LighthouseApi}) gives that cluster's addresses, which are already global IPs under
 * Globalnet. A ClusterSetIP service's slice holds one endpoint, the service's address, whose
 * {@code ready} condition says whether the service has a ready backend there (Lighthouse answers only
 * those clusters); a headless service's slice one endpoint per pod, named by its hostname, and only
 * those whose {@code ready} condition is not false are kept. An unset condition counts as ready.
 *
 * <p>Slices of this cluster are skipped: the plan knows its own exports from first principles
 * (ServiceExports, Services, EndpointSlices, GlobalIngressIPs). Pure: no I/O.
 */
final class LighthouseImports {

    private LighthouseImports() {
    }

    static List<ImportedExport> read(String localCluster, List<ServiceImport> imports, List<EndpointSlice> slices, List<ModelProblem> problems) {
        Map<String, ServiceImport> importsByService = new LinkedHashMap<>();
        imports.forEach(i -> importsByService.put(i.getMetadata().getNamespace() + "/" + i.getMetadata().getName(), i));
        Map<String, Draft> drafts = new LinkedHashMap<>();
        for (EndpointSlice slice : slices.stream().sorted(Comparator.comparing((EndpointSlice s) -> s.getMetadata().getNamespace())
                .thenComparing(s -> s.getMetadata().getName())).toList()) {
            Map<String, String> labels = labels(slice);
            String cluster = labels.get(LighthouseApi.SOURCE_CLUSTER_LABEL);
            String service = labels.get(LighthouseApi.SERVICE_NAME_LABEL);
            if (cluster == null || service == null || cluster.equals(localCluster)) {
                continue;
            }
            String namespace = labels.getOrDefault(LighthouseApi.SOURCE_NAMESPACE_LABEL, slice.getMetadata().getNamespace());
            String where = "EndpointSlice " + slice.getMetadata().getNamespace() + "/" + slice.getMetadata().getName();
            ServiceImport serviceImport = importsByService.get(namespace + "/" + service);
            if (serviceImport == null) {
                problems.add(new ModelProblem(where, "cluster " + cluster + "'s addresses of " + namespace + "/" + service
                        + " have no ServiceImport " + namespace + "/" + service + " to say what the service is; left out until there is one"));
                continue;
            }
            ServiceImportSpec spec = serviceImport.getSpec() == null ? new ServiceImportSpec(null, null, null) : serviceImport.getSpec();
            boolean headless = ServiceImportSpec.HEADLESS.equals(spec.type());
            Draft draft = drafts.computeIfAbsent(cluster + "/" + namespace + "/" + service,
                    k -> new Draft(cluster, namespace, service, headless, ports(spec, slice, where, problems)));
            for (Endpoint endpoint : slice.getEndpoints() == null ? List.<Endpoint>of() : slice.getEndpoints()) {
                Optional<Ipv4Address> address = address(endpoint, where, problems);
                if (address.isEmpty()) {
                    continue;
                }
                boolean ready = endpoint.getConditions() == null || !Boolean.FALSE.equals(endpoint.getConditions().getReady());
                if (!headless) {
                    draft.address = draft.address.or(() -> address);
                    draft.ready |= ready;
                    continue;
                }
                String pod = endpoint.getHostname() != null ? endpoint.getHostname()
                        : endpoint.getTargetRef() != null ? endpoint.getTargetRef().getName() : null;
                if (pod == null) {
                    problems.add(new ModelProblem(where, "endpoint " + address.get() + " has neither a hostname nor a targetRef to name its pod by"));
                } else if (ready) {
                    draft.pods.add(new ImportedExport.Pod(pod, address.get()));
                }
            }
        }
        return drafts.values().stream().map(Draft::build).toList();
    }

    /** The ServiceImport's ports; a headless service's clients connect to the pods, whose port the slice gives under the same name. */
    private static List<ServicePort> ports(ServiceImportSpec spec, EndpointSlice slice, String where, List<ModelProblem> problems) {
        List<ServicePort> ports = new ArrayList<>();
        for (ServiceImportSpec.ServiceImportPort port : spec.ports()) {
            Optional<Protocol> protocol = Protocol.parse(port.protocol() == null ? "TCP" : port.protocol()).filter(Protocol::hasPorts);
            if (port.port() == null || protocol.isEmpty()) {
                problems.add(new ModelProblem(where, "port " + port + " of the ServiceImport has no number or a protocol the model does not carry"));
                continue;
            }
            String name = port.name() == null ? "" : port.name();
            int target = (slice.getPorts() == null ? List.<EndpointPort>of() : slice.getPorts()).stream()
                    .filter(p -> name.equals(p.getName() == null ? "" : p.getName()) && p.getPort() != null)
                    .map(EndpointPort::getPort).findFirst().orElse(port.port());
            ports.add(new ServicePort(port.port(), target, protocol.get(), Optional.of(name).filter(n -> !n.isEmpty())));
        }
        return ports;
    }

    private static Optional<Ipv4Address> address(Endpoint endpoint, String where, List<ModelProblem> problems) {
        if (endpoint.getAddresses() == null || endpoint.getAddresses().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Ipv4Address.parse(endpoint.getAddresses().getFirst()));
        } catch (IllegalArgumentException e) {
            problems.add(new ModelProblem(where, e.getMessage()));
            return Optional.empty();
        }
    }

    private static Map<String, String> labels(HasMetadata object) {
        return object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
    }

    private static final class Draft {
        final String cluster;
        final String namespace;
        final String service;
        final boolean headless;
        final List<ServicePort> ports;
        Optional<Ipv4Address> address = Optional.empty();
        boolean ready;
        final List<ImportedExport.Pod> pods = new ArrayList<>();

        Draft(String cluster, String namespace, String service, boolean headless, List<ServicePort> ports) {
            this.cluster = cluster;
            this.namespace = namespace;
            this.service = service;
            this.headless = headless;
            this.ports = ports;
        }

        ImportedExport build() {
            return new ImportedExport(cluster, namespace, service, headless, headless ? Optional.empty() : address, headless || ready, pods, ports);
        }
    }
}
