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
                throw new SnapshotException(describe(source, e));
            }
        }
        return ClusterModelBuilder.build(clusterSetName, read);
    }

    /**
     * What went wrong reaching a cluster, in words: the server not answering (refused, unknown host,
     * no answer within the client's timeouts) is told apart from the server answering with an error.
     * An exception without a status (every connection failure) has only its causes to go by.
     */
    static String describe(Source source, KubernetesClientException e) {
        String server = source.client().getMasterUrl() == null ? "its API server" : "the API server " + source.client().getMasterUrl();
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.http.HttpTimeoutException || cause instanceof java.net.SocketTimeoutException
                    || cause instanceof java.util.concurrent.TimeoutException) {
                long seconds = Math.max(source.client().getConfiguration().getConnectionTimeout(),
                        source.client().getConfiguration().getRequestTimeout()) / 1000;
                return "context " + source.name() + ": " + server + " did not answer within " + seconds
                        + " s (--timeout); check that it is reachable from here, or allow longer with --timeout SECONDS";
            }
            if (cause instanceof java.net.ConnectException || cause instanceof java.net.UnknownHostException
                    || cause instanceof java.nio.channels.UnresolvedAddressException) {
                return "context " + source.name() + ": cannot connect to " + server + " (" + describeCause(cause)
                        + "); check the kubeconfig's server address and that the cluster is running";
            }
        }
        String answer = e.getCode() == 0 ? describeCause(e)
                : "HTTP " + e.getCode() + (e.getStatus() == null || e.getStatus().getMessage() == null ? "" : " " + e.getStatus().getMessage());
        return "context " + source.name() + ": cannot read the cluster's API (" + answer
                + "); check the kubeconfig, the context and that you may list nodes, pods and services";
    }

    private static String describeCause(Throwable cause) {
        Throwable deepest = cause;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        String message = deepest.getMessage() == null ? "" : ": " + deepest.getMessage();
        return deepest.getClass().getSimpleName() + message;
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
