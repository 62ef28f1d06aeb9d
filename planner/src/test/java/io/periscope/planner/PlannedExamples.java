package io.periscope.planner;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.Table;

import java.nio.file.Path;
import java.util.List;

/** The shipped examples, planned, and small accessors for assertions on them. */
final class PlannedExamples {

    private PlannedExamples() {
    }

    static Path example(String name) {
        return Path.of("..", "examples", name);
    }

    static ClusterSetPlan plan(String exampleFile) {
        return Planner.plan(load(exampleFile));
    }

    static ClusterSet load(String exampleFile) {
        try {
            return TopologyLoader.load(example(exampleFile));
        } catch (TopologyException e) {
            throw new AssertionError(e.report(), e);
        }
    }

    /** A cluster set written inline in a test. */
    static ClusterSet parse(String yaml) {
        try {
            return TopologyLoader.parse(yaml, "inline.yaml");
        } catch (TopologyException e) {
            throw new AssertionError(e.report(), e);
        }
    }

    /** The same cluster set with another default cable driver. */
    static ClusterSet withDefaultDriver(ClusterSet set, CableDriver driver) {
        return new ClusterSet(set.name(), set.globalnet(), driver, set.clusters(), set.connectivityPolicies(), set.connectionPolicies(),
                set.flows());
    }

    static DataplanePlan submariner(ClusterSetPlan plan, String cluster, String node) {
        return plan.host(HostId.node(cluster, node)).orElseThrow().submariner();
    }

    /** The chain's rules as iptables-save text, without "-A CHAIN". */
    static List<String> rules(DataplanePlan plan, Table table, String chain) {
        return plan.table(table).flatMap(t -> t.chain(chain)).map(Chain::inOrder).orElse(List.of())
                .stream().map(IptablesSyntax::rule).toList();
    }
}
