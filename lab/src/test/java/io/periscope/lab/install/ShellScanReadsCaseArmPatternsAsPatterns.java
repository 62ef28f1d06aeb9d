package io.periscope.lab.install;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scan of shell scripts does not take a {@code case} arm's pattern ({@code trace)}) for a program:
 * the launcher's arms named periscope's own commands, and the scan once asked for Debian packages
 * called check, serve and trace. A command after the pattern, or inside a substitution, still counts.
 */
class ShellScanReadsCaseArmPatternsAsPatterns {

    @Test
    void anArmsPatternIsNotAProgramButTheCommandAfterItIs() {
        String script = """
                case $command_name in
                    serve) family=picture ;;
                    trace) jvm+=(-XX:TieredStopAtLevel=1) ;;
                    check)
                        if [ "$(nproc 2>/dev/null || echo 2)" -le 1 ]; then
                            flags=x
                        fi ;;
                    --html|--html=*|--dot|--dot=*) family=picture ;;
                    plan) sysctl -n net.core.somaxconn ;;
                    *) logger unknown ;;
                esac
                """;
        assertThat(ProgramsTheCodeRuns.shellPrograms(script)).containsExactlyInAnyOrder("nproc", "sysctl", "logger");
    }

    @Test
    void aWordClosingASubstitutionOutsideACaseIsStillAProgram() {
        assertThat(ProgramsTheCodeRuns.shellPrograms("cores=$(nproc)\nhost=$(hostname)\n")).containsExactlyInAnyOrder("nproc", "hostname");
    }

    @Test
    void afterEsacTheScanReadsCommandsAgain() {
        String script = """
                case $1 in
                    a) ;;
                esac
                x=$(uname)
                """;
        assertThat(ProgramsTheCodeRuns.shellPrograms(script)).containsExactly("uname");
    }
}
