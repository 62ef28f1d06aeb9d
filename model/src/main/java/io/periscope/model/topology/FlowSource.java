package io.periscope.model.topology;

/** Where a flow starts: a pod ({@code cluster/namespace/pod}) or a node's own network ({@code cluster/node}). */
public sealed interface FlowSource {

    String cluster();

    record PodSource(String cluster, String namespace, String pod) implements FlowSource {
        @Override
        public String toString() {
            return cluster + "/" + namespace + "/" + pod;
        }
    }

    record NodeSource(String cluster, String node) implements FlowSource {
        @Override
        public String toString() {
            return cluster + "/" + node;
        }
    }
}
