package io.periscope.kubernetes.dns;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.periscope.kubernetes.crd.LighthouseApi;
import io.periscope.plan.dns.PodReadiness;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * This cluster's ready pods per service, from the EndpointSlices Kubernetes' endpoint controller
 * writes (label {@code kubernetes.io/service-name}, endpoints naming their pod in {@code targetRef}),
 * and the services with at least one ready endpoint (a pod or not: a Service without a selector has
 * hand-written slices). An endpoint whose {@code ready} condition is unset counts as ready, as the
 * API asks consumers to read it. A pod no slice lists ready is not answered, nor a ClusterSetIP
 * service with no ready endpoint (no slice at all included); other clusters are judged where they
 * are (their slices' {@code ready} conditions, see {@link LighthouseImports}).
 *
 * @param ready         ready pods, as {@code namespace/service/pod}
 * @param readyServices services with a ready endpoint, as {@code namespace/service}
 */
public record ReadyPods(String localCluster, Set<String> ready, Set<String> readyServices) implements PodReadiness {

    public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    public static ReadyPods of(String localCluster, List<EndpointSlice> slices) {
        Set<String> ready = new HashSet<>();
        Set<String> readyServices = new HashSet<>();
        for (EndpointSlice slice : slices) {
            Map<String, String> labels = slice.getMetadata().getLabels() == null ? Map.of() : slice.getMetadata().getLabels();
            String service = labels.get(SERVICE_NAME_LABEL);
            // Lighthouse's copies carry the service name too; they are the other clusters' business.
            if (service == null || labels.containsKey(LighthouseApi.SOURCE_CLUSTER_LABEL)) {
                continue;
            }
            for (Endpoint endpoint : slice.getEndpoints() == null ? List.<Endpoint>of() : slice.getEndpoints()) {
                boolean isReady = endpoint.getConditions() == null || !Boolean.FALSE.equals(endpoint.getConditions().getReady());
                if (isReady) {
                    readyServices.add(slice.getMetadata().getNamespace() + "/" + service);
                }
                if (isReady && endpoint.getTargetRef() != null && "Pod".equals(endpoint.getTargetRef().getKind())) {
                    ready.add(key(slice.getMetadata().getNamespace(), service, endpoint.getTargetRef().getName()));
                }
            }
        }
        return new ReadyPods(localCluster, Set.copyOf(ready), Set.copyOf(readyServices));
    }

    @Override
    public boolean ready(String cluster, String namespace, String service, String pod) {
        return !cluster.equals(localCluster) || ready.contains(key(namespace, service, pod));
    }

    @Override
    public boolean serviceReady(String cluster, String namespace, String service) {
        return !cluster.equals(localCluster) || readyServices.contains(namespace + "/" + service);
    }

    private static String key(String namespace, String service, String pod) {
        return namespace + "/" + service + "/" + pod;
    }
}
