package io.periscope.lab.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.ovn.DesiredNorthbound;
import io.periscope.dataplane.ovn.NbRow;
import io.periscope.dataplane.ovn.NbctlNorthbound;
import io.periscope.dataplane.ovn.NorthboundFromScratch;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.dataplane.ovn.NorthboundScope;
import io.periscope.model.load.TopologyLoader;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The agent's northbound programmer against a real OVN northbound database. */
class NorthboundProgrammerBringsRealOvnToThePlan {

    private static OvnTopology globalnetEast;
    private static OvnTopology vanillaEast;

    @BeforeAll
    static void plans() throws Exception {
        Optional<String> unavailable = OvnSandbox.unavailable();
        Assumptions.assumeTrue(unavailable.isEmpty(), () -> OvnTestTopologies.SKIP + unavailable.orElse(""));
        globalnetEast = Planner.plan(TopologyLoader.parse(OvnTestTopologies.GLOBALNET, "g.yaml")).ovn("east").orElseThrow();
        vanillaEast = Planner.plan(TopologyLoader.parse(OvnTestTopologies.VANILLA, "v.yaml")).ovn("east").orElseThrow();
    }

    private static Set<NbRow> rows(NbctlNorthbound northbound) {
        return new HashSet<>(northbound.read().plain());
    }

    private static Set<NbRow> owned(Set<NbRow> rows, NorthboundScope scope) {
        Set<NbRow> owned = new HashSet<>();
        rows.stream().filter(scope::owns).forEach(owned::add);
        return owned;
    }

    @Test
    void theDatabaseHoldsExactlyThePlanAndASecondRunChangesNothing(@TempDir Path directory) {
        try (OvnSandbox ovn = OvnSandbox.start(directory)) {
            NbctlNorthbound northbound = new NbctlNorthbound(ProcessCommandRunner.here(), ovn.northbound());
            NorthboundProgrammer cni = new NorthboundProgrammer(northbound, NorthboundScope.OVN_KUBERNETES);
            NorthboundProgrammer submariner = new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER);
            assertThat(cni.program(globalnetEast)).isNotEmpty();
            assertThat(submariner.program(globalnetEast)).isNotEmpty();

            assertThat(rows(northbound)).isEqualTo(new HashSet<>(DesiredNorthbound.of(globalnetEast).plain()));
            assertThat(cni.program(globalnetEast)).isEmpty();
            assertThat(submariner.program(globalnetEast)).isEmpty();
        }
    }

    /** What {@code periscope plan} prints for an OVN cluster is one transaction that real OVN accepts and that builds the plan. */
    @Test
    void theTransactionPlanPrintsBuildsThePlanInAnEmptyDatabase(@TempDir Path directory) {
        try (OvnSandbox ovn = OvnSandbox.start(directory)) {
            NbctlNorthbound northbound = new NbctlNorthbound(ProcessCommandRunner.here(), ovn.northbound());
            List<String> argv = new java.util.ArrayList<>(List.of(NbctlNorthbound.PROGRAM, "--db=" + ovn.northbound()));
            argv.addAll(NorthboundFromScratch.arguments(globalnetEast));

            ProcessCommandRunner.here().run(new Command(argv, ""));

            assertThat(rows(northbound)).isEqualTo(new HashSet<>(DesiredNorthbound.of(globalnetEast).plain()));
            assertThat(new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER).program(globalnetEast)).isEmpty();
        }
    }

    @Test
    void changedRemoteClustersReplaceSubmarinersPoliciesAndRoutesAndLeaveOvnKubernetesRowsAlone(@TempDir Path directory) {
        try (OvnSandbox ovn = OvnSandbox.start(directory)) {
            NbctlNorthbound northbound = new NbctlNorthbound(ProcessCommandRunner.here(), ovn.northbound());
            new NorthboundProgrammer(northbound, NorthboundScope.OVN_KUBERNETES).program(globalnetEast);
            NorthboundProgrammer submariner = new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER);
            submariner.program(globalnetEast);
            // OVN-Kubernetes' own policy on the shared router, at its own priority.
            ProcessCommandRunner.here().run(Command.of("ovn-nbctl", "--db=" + ovn.northbound(), "lr-policy-add", "ovn_cluster_router", "1004",
                    "inport == \"rtos-east-gw\" && ip4.dst == 192.168.10.2", "reroute", "10.244.0.2"));
            Set<NbRow> ovnKubernetes = owned(rows(northbound), NorthboundScope.OVN_KUBERNETES);

            assertThat(submariner.program(vanillaEast)).isNotEmpty();

            Set<NbRow> after = rows(northbound);
            assertThat(owned(after, NorthboundScope.SUBMARINER)).isEqualTo(owned(new HashSet<>(DesiredNorthbound.of(vanillaEast).plain()),
                    NorthboundScope.SUBMARINER));
            assertThat(owned(after, NorthboundScope.OVN_KUBERNETES)).isEqualTo(ovnKubernetes);
            assertThat(after).contains(new NbRow.PolicyRow("ovn_cluster_router", 20000, "ip4.dst == 10.20.0.0/16", "reroute", List.of("169.254.254.1")))
                    .doesNotContain(new NbRow.PolicyRow("ovn_cluster_router", 20000, "ip4.dst == 242.1.0.0/16", "reroute", List.of("169.254.254.1")));
            assertThat(submariner.program(vanillaEast)).isEmpty();
        }
    }

    @Test
    void submarinersPartWaitsForOvnKubernetesAndChangesNothingMeanwhile(@TempDir Path directory) {
        try (OvnSandbox ovn = OvnSandbox.start(directory)) {
            NbctlNorthbound northbound = new NbctlNorthbound(ProcessCommandRunner.here(), ovn.northbound());
            assertThatThrownBy(() -> new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER).program(globalnetEast))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("it lacks logical_router ovn_cluster_router")
                    .hasMessageContaining("load_balancer_group clusterLBGroup")
                    .hasMessageContaining("OVN-Kubernetes builds those");
            assertThat(rows(northbound)).isEmpty();
        }
    }
}
