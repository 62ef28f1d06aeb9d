package io.periscope.model.globalnet;

import java.util.Optional;

/**
 * Seed 002's GlobalIngressIP, created by Globalnet (never by users) for each exported ClusterIP
 * service ({@code svc-} prefix) and for each pod of an exported headless service ({@code pod-} prefix).
 *
 * @param serviceName the exported service (for a headless pod, the service it backs)
 * @param podName     the pod, for {@link GlobalIngressTarget#HEADLESS_SERVICE_POD}
 */
public record GlobalIngressIP(String name, String namespace, GlobalIngressTarget target, String serviceName, Optional<String> podName) {

    /** Kubernetes object names are at most 253 characters; upstream truncates and keeps the full name in objRef. */
    static final int MAX_NAME = 253;

    public static GlobalIngressIP forService(String namespace, String service) {
        return new GlobalIngressIP(truncate("svc-" + service), namespace, GlobalIngressTarget.CLUSTER_IP_SERVICE, service, Optional.empty());
    }

    public static GlobalIngressIP forHeadlessPod(String namespace, String service, String pod) {
        return new GlobalIngressIP(truncate("pod-" + pod), namespace, GlobalIngressTarget.HEADLESS_SERVICE_POD, service, Optional.of(pod));
    }

    private static String truncate(String name) {
        return name.length() <= MAX_NAME ? name : name.substring(0, MAX_NAME);
    }
}
