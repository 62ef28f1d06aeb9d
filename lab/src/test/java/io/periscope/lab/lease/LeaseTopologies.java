package io.periscope.lab.lease;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The cluster sets of the lease tests (lab and lab-simulator), from this module's test resources. */
public final class LeaseTopologies {

    private LeaseTopologies() {
    }

    /** Two kube-proxy clusters; cluster1 has two gateways and one active (lease/single-active.yaml). */
    public static ClusterSet singleActive() throws TopologyException {
        return load("single-active.yaml");
    }

    /** examples/globalnet-mixed-ovn.yaml with a standby gateway in its OVN-Kubernetes cluster east, in seed 003's design. */
    public static ClusterSet ovnSingleActive() throws TopologyException {
        return load("ovn-single-active.yaml");
    }

    /** The same under upstream's design ({@code behaviour: upstream}): reroutes to the active gateway's ovn-k8s-mp0, no submariner_router. */
    public static ClusterSet ovnSingleActiveUpstream() throws TopologyException {
        String upstream = text("ovn-single-active.yaml").replace("name: ovn-single-active\n", "name: ovn-single-active-upstream\nbehaviour: upstream\n");
        return TopologyLoader.parse(upstream, "ovn-single-active-upstream.yaml");
    }

    private static ClusterSet load(String file) throws TopologyException {
        return TopologyLoader.parse(text(file), file);
    }

    private static String text(String file) {
        try (InputStream in = LeaseTopologies.class.getResourceAsStream("/lease/" + file)) {
            if (in == null) {
                throw new IllegalStateException("no test resource lease/" + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
