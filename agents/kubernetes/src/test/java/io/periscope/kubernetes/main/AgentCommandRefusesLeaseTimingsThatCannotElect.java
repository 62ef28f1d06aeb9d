package io.periscope.kubernetes.main;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Lease timings a lab gives its agents ({@code --lease-duration}, {@code --renew-deadline},
 * {@code --retry-period}) are checked as client-go checks them before anything starts: a leader
 * must renew before its Lease runs out, so a renew deadline at or past the duration is a usage
 * error naming both, not a stack trace.
 */
class AgentCommandRefusesLeaseTimingsThatCannotElect {

    @Test
    void aRenewDeadlinePastTheLeaseDurationIsAUsageErrorNamingBoth() {
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new AgentCommand()).setErr(new PrintWriter(err)).execute("route-agent", "--cluster-id", "east",
                "--node-name", "east-worker", "--lease-duration", "PT1S", "--renew-deadline", "PT2S", "--retry-period", "PT0.25S");

        assertThat(exit).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("the lease duration (PT1S) must be longer than the renew deadline (PT2S)").doesNotContain("\tat ");
    }
}
