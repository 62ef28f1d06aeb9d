package io.periscope.lab.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link GatewayMacLearning} against a recording runner: it pings from the chassis until the
 * southbound database shows the binding, then waits for every chassis; it gives up with a message
 * that names what is missing; and it pings nothing where the agents have not made ovn-k8s-sub0 yet.
 * The lab's {@code AnOvnLabComesUpAndGoesDownLeavingNothing} checks the same against real OVN.
 */
class GatewayMacLearningPingsUntilOvnHoldsTheBinding {

    private static final HostNamespace CHASSIS = new HostNamespace(HostId.node("west", "west-gw"), "psc-test-west-west-gw", null);
    private static final Path CLUSTER = Path.of("/run/periscope/lab-test.d/ovn-west");

    @Test
    void pingsUntilTheBindingShowsThenWaitsForEveryChassis() {
        AtomicInteger lookups = new AtomicInteger();
        RecordingCommandRunner runner = new RecordingCommandRunner(c -> CommandResult.success(""))
                .answer(c -> runs(c.argv(), "ovn-sbctl"), c -> CommandResult.success(lookups.incrementAndGet() < 3 ? "" : "0a:58:66:22:33:44\n"));

        String learnt = new GatewayMacLearning(runner, Duration.ofSeconds(20)).learn(CHASSIS, CLUSTER);

        assertThat(learnt).isEqualTo("west: submariner_router learnt 169.254.254.10 at 0a:58:66:22:33:44 (west/west-gw's ovn-k8s-sub0)"
                + " after 3 pings, applied on every chassis");
        List<List<String>> commands = runner.commands().stream().map(Command::argv).toList();
        assertThat(commands.stream().filter(argv -> runs(argv, "ping"))).hasSize(3)
                .allSatisfy(argv -> assertThat(argv).containsSubsequence("ip", "netns", "exec", "psc-test-west-west-gw")
                        .containsSubsequence("-I", "ovn-k8s-sub0", "169.254.254.9"));
        assertThat(commands.stream().filter(argv -> runs(argv, "ovn-sbctl"))).allSatisfy(argv -> assertThat(argv)
                .contains("--db=unix:/run/periscope/lab-test.d/ovn-west/central/sb.sock", "logical_port=submariner_up_lrp",
                        "ip=\"169.254.254.10\""));
        // The wait comes last, once the binding is there.
        assertThat(commands.getLast()).containsExactly("ovn-nbctl", "--db=unix:/run/periscope/lab-test.d/ovn-west/central/nb.sock",
                "--timeout=20", "--wait=hv", "sync");
    }

    @Test
    void aBindingThatNeverShowsFailsNamingTheClusterThePortAndTheAddress() {
        RecordingCommandRunner runner = new RecordingCommandRunner(c -> CommandResult.success(""));

        assertThatThrownBy(() -> new GatewayMacLearning(runner, Duration.ofMillis(300)).learn(CHASSIS, CLUSTER))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("ovn west: submariner_router learnt no MAC for west/west-gw's ovn-k8s-sub0 (169.254.254.10) in 300 ms"
                        + " of pings to 169.254.254.9")
                .hasMessageEndingWith("its southbound database holds no MAC_Binding of submariner_up_lrp");
        assertThat(runner.commands()).noneMatch(c -> c.argv().contains("--wait=hv"));
    }

    @Test
    void aChassisWithoutOvnK8sSub0YetIsNotPinged() {
        RecordingCommandRunner runner = new RecordingCommandRunner(c -> CommandResult.success(""))
                .answer(c -> c.argv().contains("link"), c -> new CommandResult(1, "", "Device \"ovn-k8s-sub0\" does not exist.\n"));

        String learnt = new GatewayMacLearning(runner, Duration.ofSeconds(20)).learn(CHASSIS, CLUSTER);

        assertThat(learnt).isEqualTo("west: not learnt, west/west-gw has no ovn-k8s-sub0 yet (its agents have not run)");
        assertThat(runner.commands()).hasSize(1);
    }

    /** Whether the command line runs {@code program}, in a namespace ({@code ip netns exec NS ...}) or not. */
    private static boolean runs(List<String> argv, String program) {
        int at = argv.size() > 4 && argv.get(0).equals("ip") && argv.get(1).equals("netns") ? 4 : 0;
        return argv.get(at).equals(program);
    }
}
