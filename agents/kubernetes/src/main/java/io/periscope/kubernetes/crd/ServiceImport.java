package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The Multi-Cluster Services API's ServiceImport, as far as the DNS server reads it: in the
 * service's namespace, named after the service, it says whether the service is headless and what
 * its ports are; the addresses of each exporting cluster are in that cluster's EndpointSlices.
 * Lighthouse's agents write both. fabric8 ships no class for it, so Periscope generates a minimal
 * CRD, as for {@link ServiceExportResource}.
 */
@Group("multicluster.x-k8s.io")
@Version("v1alpha1")
public class ServiceImport extends CustomResource<ServiceImportSpec, ServiceImportStatus> implements Namespaced {
}
