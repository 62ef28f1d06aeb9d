package io.periscope.kubernetes.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The Multi-Cluster Services API's ServiceExport, as far as Periscope reads it: its name and
 * namespace name the exported service. fabric8 ships no class for it, and a cluster without
 * Lighthouse has no CRD for it, so Periscope generates a minimal one.
 *
 * <p>Kind {@code ServiceExport}; the class is named apart from the model's record {@code ServiceExport}
 * (in {@code io.periscope.model.topology}), which the model builder makes of it.
 */
@Group("multicluster.x-k8s.io")
@Version("v1alpha1")
@Kind("ServiceExport")
public class ServiceExportResource extends CustomResource<Void, Void> implements Namespaced {
}
