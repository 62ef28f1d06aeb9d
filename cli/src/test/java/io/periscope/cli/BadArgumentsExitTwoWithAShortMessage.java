package io.periscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BadArgumentsExitTwoWithAShortMessage {

    static List<List<String>> commandPaths() {
        return PeriscopeRun.commandPaths();
    }

    @ParameterizedTest
    @MethodSource("commandPaths")
    void anUnknownOptionIsNamedWithAHintAndNoUsageDump(List<String> path) {
        PeriscopeRun run = PeriscopeRun.of(PeriscopeRun.with(path, "topology.yaml", "--no-such-option"));

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("'--no-such-option'", "--help' for more information");
        assertThat(run.err()).doesNotContain("Usage:", "Exception", "\tat ");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aCommandWithoutItsFileSaysTheFileIsMissing() {
        PeriscopeRun run = PeriscopeRun.of("check");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).startsWith("periscope check: Missing required parameter: 'FILE'");
    }

    @Test
    void aGroupWithoutASubcommandSaysOneIsMissing() {
        assertThat(PeriscopeRun.of().status()).isEqualTo(ExitStatus.BAD_INPUT);

        PeriscopeRun lab = PeriscopeRun.of("lab");
        assertThat(lab.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(lab.err()).contains("periscope lab: Missing required subcommand");
    }

    @Test
    void aMalformedNodeNameIsRefusedBeforeAnythingRuns() {
        PeriscopeRun run = PeriscopeRun.of("trace", "topology.yaml", "--fail", "gw-1");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("'gw-1' is not CLUSTER/NODE");
    }

    @Test
    void jsonBesideHtmlOrDotIsRefusedRatherThanIgnored() {
        for (String picture : List.of("--html", "--dot")) {
            PeriscopeRun run = PeriscopeRun.of("trace", "../examples/mag-globalnet.yaml", "--json", picture, "-");

            assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
            assertThat(run.err()).startsWith("periscope trace: --json cannot be combined with " + picture + ": both replace the text output");
            assertThat(run.out()).isEmpty();
        }
    }

    @Test
    void aNamedFlowAndAnAdHocFlowCannotBeCombined() {
        PeriscopeRun run = PeriscopeRun.of("trace", "topology.yaml", "--flow", "f", "--from", "c1/default/a", "--to", "1.2.3.4:80");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("mutually exclusive");
    }

    @Test
    void anAdHocFlowNeedsBothEnds() {
        PeriscopeRun run = PeriscopeRun.of("trace", "topology.yaml", "--from", "c1/default/a");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("--to");
    }

    @Test
    void anUnknownProtocolIsRefused() {
        PeriscopeRun run = PeriscopeRun.of("trace", "topology.yaml", "--from", "c1/default/a", "--to", "1.2.3.4:80", "--protocol", "sctp");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).contains("'sctp' is not tcp, udp or icmp");
    }
}
