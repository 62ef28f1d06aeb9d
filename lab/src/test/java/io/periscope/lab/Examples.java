package io.periscope.lab;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.planner.Planner;

import java.nio.file.Path;

/** The shipped examples, as tests load them. */
public final class Examples {

    public static final String MAG_GLOBALNET = "mag-globalnet.yaml";
    public static final String GLOBALNET_EGRESS = "globalnet-egress.yaml";
    public static final String GLOBALNET_OVN = "globalnet-ovn.yaml";
    public static final String GLOBALNET_MIXED_OVN = "globalnet-mixed-ovn.yaml";
    public static final String CLIENT_SERVER = "client-server.yaml";
    public static final String MAG_GLOBALNET_EGRESS = "mag-globalnet-egress.yaml";
    public static final String MAG_3_GATEWAYS = "mag-3-gateways.yaml";

    private Examples() {
    }

    public static Path file(String name) {
        return Path.of("..", "examples", name);
    }

    public static ClusterSet load(String name) {
        try {
            return TopologyLoader.load(file(name));
        } catch (TopologyException e) {
            throw new IllegalStateException("the shipped example " + name + " does not load: " + e.getMessage(), e);
        }
    }

    public static ClusterSetPlan plan(String name) {
        return Planner.plan(load(name));
    }

    /** The same cluster set under another name: its lab gets namespaces of its own. */
    public static ClusterSet renamed(ClusterSet set, String name) {
        return new ClusterSet(name, set.globalnet(), set.defaultCableDriver(), set.clusters(), set.connectivityPolicies(),
                set.connectionPolicies(), set.flows(), set.cables(), set.behaviour());
    }
}
