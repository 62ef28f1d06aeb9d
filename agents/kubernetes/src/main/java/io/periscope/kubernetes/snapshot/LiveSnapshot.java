package io.periscope.kubernetes.snapshot;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.crd.SubmarinerCluster;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.modelbuilder.LiveObjectsReader;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads live clusters, one client each, into the model a topology file would give: the snapshot
 * that {@code periscope snapshot} writes, so people can simulate their real cluster set before
 * changing it.
 */
public final class LiveSnapshot {

    /** A cluster that cannot be read, with what to do about it. */
    public static final class SnapshotException extends Exception {
        public SnapshotException(String message) {
            super(message);
        }
    }

    /** One cluster to read: a client, a name for messages (the kubeconfig context) and where Submariner's objects are. */
    public record Source(String name, KubernetesClient client, String submarinerNamespace) {
    }

    private LiveSnapshot() {
    }

    public static LiveModel read(String clusterSetName, List<Source> sources) throws SnapshotException {
        List<LiveObjects> read = new ArrayList<>();
        for (Source source : sources) {
            try {
                String clusterId = localClusterId(source);
                read.add(LiveObjectsReader.read(source.client(), source.submarinerNamespace(), clusterId));
            } catch (KubernetesClientException e) {
                throw new SnapshotException("context " + source.name() + ": cannot read the cluster's API ("
                        + (e.getCode() == 0 ? e.getMessage() : "HTTP " + e.getCode() + " " + e.getStatus().getMessage())
                        + "); check the kubeconfig, the context and that you may list nodes, pods and services");
            }
        }
        return ClusterModelBuilder.build(clusterSetName, read);
    }

    /** The cluster's own Cluster object: the one in the namespace that is not a broker copy. */
    static String localClusterId(Source source) throws SnapshotException {
        List<SubmarinerCluster> own;
        try {
            own = source.client().resources(SubmarinerCluster.class).inNamespace(source.submarinerNamespace()).list().getItems().stream()
                    .filter(c -> c.getMetadata().getLabels() == null || !c.getMetadata().getLabels().containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL))
                    .toList();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                throw new SnapshotException("context " + source.name() + ": the cluster has no Cluster CRD (clusters.submariner.io); "
                        + "install deploy/crds and describe the cluster with deploy/cluster.yaml");
            }
            throw e;
        }
        if (own.size() != 1) {
            throw new SnapshotException("context " + source.name() + ": expected one Cluster object of its own in namespace "
                    + source.submarinerNamespace() + ", found " + own.stream().map(c -> c.getMetadata().getName()).toList()
                    + "; create one from deploy/cluster.yaml (or pass --namespace)");
        }
        return ClusterModelBuilder.clusterIdOf(own.getFirst());
    }
}
