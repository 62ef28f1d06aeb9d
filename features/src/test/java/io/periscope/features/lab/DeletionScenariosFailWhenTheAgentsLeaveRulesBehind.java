package io.periscope.features.lab;

import io.cucumber.core.cli.Main;
import io.periscope.dataplane.reconcile.SkipDeletionsMutation;
import io.periscope.features.backend.LabBackend;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The mutation proof of issue 29: each deletion scenario the lab takes in place, run in the lab
 * once as it is and once with the agents' reconciler skipping every deletion ({@link SkipDeletionsMutation}, which the lab's
 * supervisor is handed). The scenario goes to the running lab through {@code lab apply} and reads
 * the gateway's kernel afterwards, so the faulty agents' leftover rule must fail it, named.
 * Runs the scenario's own text and steps (Cucumber's command line, the lab suite's glue), as root
 * and under the lab's lock like the lab suite; each run takes its lab down when it ends.
 */
class DeletionScenariosFailWhenTheAgentsLeaveRulesBehind {

    @Test
    void deletingAnExportFailsNamingTheIngressRuleFaultyAgentsLeft() throws IOException {
        failsOnlyWithTheFault("globalnet.feature", "Deleting an export releases the service's global IP and its ingress rule",
                // The first step that reads the kernel after the change, "holds no global IP", finds the
                // service's global IP still in the gateway's ingress rule and names it.
                "west/west-gw: nat SUBMARINER-GN-INGRESS -d 169.254.1.254/32");
    }

    @Test
    void deletingAGlobalEgressIpFailsNamingThePodsRuleFaultyAgentsLeft() throws IOException {
        // The rule goes first: the ipset it names can only be destroyed once no rule names it.
        failsOnlyWithTheFault("globalnet-2.feature", "Deleting a GlobalEgressIP releases its egress IPs, its rule and its ipset, "
                + "and its pods leave with the namespace's", "east/east-gw: nat SM-GN-EGRESS-PODS");
    }

    @Test
    void removingAGatewayFailsNamingTheEntriesFaultyAgentsLeftOnTheNodesThatStay() throws IOException {
        // The gateway's namespace goes with lab apply; what names it on the nodes that stay is the agents' to delete.
        failsOnlyWithTheFault("multiple-active-gateways.feature",
                "When a gateway is removed for good, its flows move to the remaining gateway and the routes follow",
                "still names cluster1/gw-1's address in: ");
    }

    @Test
    void removingASpokesOnlyGatewayFailsNamingTheEntriesFaultyAgentsLeft() throws IOException {
        failsOnlyWithTheFault("globalnet.feature", "A cluster whose gateways have all failed is left out",
                "still names north/north-gw's address in: ");
    }

    private static void failsOnlyWithTheFault(String feature, String scenario, String leftover) throws IOException {
        assumeTrue(LabBackend.onThisMachine().unavailable().isEmpty(), () -> LabBackend.onThisMachine().unavailable().orElseThrow());

        Run honest = run(feature, scenario, false);
        Run faulty = run(feature, scenario, true);

        assertThat(honest.status()).as("the scenario with the agents as they are:\n" + honest.report()).isZero();
        assertThat(faulty.status()).as("the scenario with agents that skip deletions").isNotZero();
        assertThat(faulty.report()).contains(leftover);
        // The change went to the running lab: a rebuilt lab would have had nothing to leave behind.
        assertThat(faulty.report()).contains("lab apply: the running lab took the change in place");
    }

    private record Run(byte status, String report) {
    }

    private static Run run(String feature, String scenario, boolean skipDeletions) throws IOException {
        Path report = Files.createTempFile("periscope-deletion-mutation", ".json");
        try {
            if (skipDeletions) {
                System.setProperty(SkipDeletionsMutation.PROPERTY, "true");
            }
            byte status = Main.run(new String[]{"--glue", "io.periscope.features.steps", "--glue", "io.periscope.features.lab",
                    "--name", "^" + java.util.regex.Pattern.quote(scenario) + "$", "--plugin", "json:" + report, "--monochrome",
                    "classpath:features/" + feature},
                    DeletionScenariosFailWhenTheAgentsLeaveRulesBehind.class.getClassLoader());
            return new Run(status, Files.readString(report));
        } finally {
            System.clearProperty(SkipDeletionsMutation.PROPERTY);
            Files.deleteIfExists(report);
        }
    }
}
