package io.periscope.cli;

import io.periscope.model.load.TopologyError;
import io.periscope.model.load.TopologyException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

class InternalErrorsExitThreeAndShowTheStackTraceOnlyWithDebug {

    @Command(name = "explode")
    static final class Exploding implements Callable<Integer> {
        @Option(names = "--debug")
        boolean debug;

        @Option(names = "--bad-file")
        boolean badFile;

        @Override
        public Integer call() throws TopologyException {
            if (badFile) {
                throw new TopologyException(List.of(new TopologyError("t.yaml", 7, 3, "clusters[0].nodes", "no gateway node", "mark one node gateway: true")));
            }
            throw new IllegalStateException("the planner lost a route");
        }
    }

    private static PeriscopeRun explode(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = new CommandLine(new Exploding())
                .setExecutionExceptionHandler(new ExecutionErrorHandler())
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new PeriscopeRun(status, out.toString(), err.toString());
    }

    @Test
    void anUnexpectedExceptionExitsThreeWithItsMessageAndTheDebugHint() {
        PeriscopeRun run = explode();

        assertThat(run.status()).isEqualTo(ExitStatus.INTERNAL_ERROR);
        assertThat(run.err()).startsWith("explode: internal error: the planner lost a route\n").contains("--debug");
        assertThat(run.err()).doesNotContain("\tat ");
    }

    @Test
    void debugAddsTheStackTrace() {
        PeriscopeRun run = explode("--debug");

        assertThat(run.status()).isEqualTo(ExitStatus.INTERNAL_ERROR);
        assertThat(run.err()).contains("internal error: the planner lost a route", "IllegalStateException", "\tat ");
    }

    @Test
    void aBadTopologyFileExitsTwoWithTheLoadersReport() {
        PeriscopeRun run = explode("--bad-file");

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).startsWith("t.yaml:7:3: clusters[0].nodes: no gateway node\n    fix: mark one node gateway: true\n");
        assertThat(run.err()).doesNotContain("internal error");
    }

    @Test
    void theRealCommandTreeAcceptsDebugOnEverySubcommand() {
        for (List<String> path : PeriscopeRun.commandPaths()) {
            PeriscopeRun run = PeriscopeRun.of(PeriscopeRun.with(path, "--debug", "--help"));
            assertThat(run.status()).as("periscope %s --debug --help", path).isZero();
        }
    }
}
