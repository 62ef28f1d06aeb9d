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

    /** Ends whatever the agents keep running (threads inside the namespaces). */
    @Override
    void close();
}
