package io.periscope.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command line gets only the subcommand it names (picocli's reflection over the others was most of a
 * small command's start-up), and that subcommand behaves exactly as in the whole tree: same help,
 * same inherited options.
 */
class TheCommandTreeIsBuiltOnlyAsFarAsTheCommandLineNeeds {

    @Test
    void aNamedSubcommandIsTheOnlyOneBuilt() {
        assertThat(PeriscopeCommand.commandLine(new String[] {"trace", "x.yaml", "--flow", "f"}).getSubcommands())
                .containsOnlyKeys("trace");
        assertThat(PeriscopeCommand.commandLine(new String[] {"--debug", "lab", "up", "x.yaml"}).getSubcommands())
                .containsOnlyKeys("lab");
    }

    @Test
    void theVersionAloneNeedsNoSubcommand() {
        assertThat(PeriscopeCommand.commandLine(new String[] {"--version"}).getSubcommands()).isEmpty();
        assertThat(PeriscopeCommand.commandLine(new String[] {"-V", "--debug"}).getSubcommands()).isEmpty();
    }

    @Test
    void theVersionWithoutPicocliSaysWhatPicocliSays() {
        StringWriter picocli = new StringWriter();
        PeriscopeCommand.commandLine().printVersionHelp(new PrintWriter(picocli, true));
        for (String option : List.of("--version", "-V")) {
            StringWriter out = new StringWriter();
            int status = PeriscopeCommand.run(new String[] {option}, new PrintWriter(out, true), new PrintWriter(new StringWriter()));
            assertThat(status).isZero();
            assertThat(out.toString()).as(option).isEqualTo(picocli.toString()).startsWith("periscope ");
        }
    }

    @Test
    void helpNoArgumentsAndUnknownNamesGetEverySubcommand() {
        List<String> all = List.of("trace", "plan", "check", "dns", "serve", "lab", "snapshot");
        for (String[] args : List.of(new String[] {}, new String[] {"--help"}, new String[] {"--version", "--help"},
                new String[] {"trcae", "x.yaml"}, new String[] {"--debug"})) {
            assertThat(PeriscopeCommand.commandLine(args).getSubcommands().keySet()).as(String.join(" ", args)).containsExactlyElementsOf(all);
        }
    }

    @Test
    void eachSubcommandIsRegisteredUnderItsOwnCommandName() {
        PeriscopeCommand.SUBCOMMANDS.forEach((name, command) ->
                assertThat(new CommandLine(command.get()).getCommandName()).isEqualTo(name));
    }

    @Test
    void aSubcommandBuiltAloneHelpsAndInheritsAsInTheWholeTree() {
        CommandLine whole = PeriscopeCommand.commandLine();
        for (String name : PeriscopeCommand.SUBCOMMANDS.keySet()) {
            CommandLine alone = PeriscopeCommand.commandLine(new String[] {name}).getSubcommands().get(name);
            CommandLine inWhole = whole.getSubcommands().get(name);
            assertThat(alone.getUsageMessage(CommandLine.Help.Ansi.OFF)).as(name)
                    .isEqualTo(inWhole.getUsageMessage(CommandLine.Help.Ansi.OFF))
                    .contains(ExecutionErrorHandler.DEBUG_OPTION);
            assertThat(alone.getParameterExceptionHandler()).as(name).isInstanceOf(UsageErrorHandler.class);
            assertThat(alone.getExecutionExceptionHandler()).as(name).isInstanceOf(ExecutionErrorHandler.class);
        }
    }
}
