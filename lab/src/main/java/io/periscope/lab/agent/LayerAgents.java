package io.periscope.lab.agent;

import io.periscope.lab.layout.HostNamespace;

/**
 * Makes the agents of a lab node: one playing kube-proxy (the lab stands in for it, owning only its
 * {@code KUBE-} chains) and Periscope's own, owning the {@code submariner} layer. Each owns only its
 * part, so neither removes the other's rules, nor anything added by hand.
 */
public interface LayerAgents extends AutoCloseable {

    LayerAgent kubeProxy(HostNamespace node);

    LayerAgent submariner(HostNamespace node);

    /**
     * Periscope's agent of a node of an OVN-Kubernetes cluster, which also keeps the plan's bridges
     * in the node's Open vSwitch, before its layer (whose routes go through their ports). Agents
     * that stand in for the real ones in tests of something else leave the bridges out.
     */
    default LayerAgent submariner(HostNamespace node, NodeOvs ovs) {
        return submariner(node);
    }

    /** Ends whatever the agents keep running (threads inside the namespaces). */
    @Override
    void close();
}
