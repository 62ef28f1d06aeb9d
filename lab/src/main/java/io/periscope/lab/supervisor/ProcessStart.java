package io.periscope.lab.supervisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * When a process started, in clock ticks since the machine booted: field 22 ({@code starttime}) of
 * {@code /proc/PID/stat}. This, not {@link ProcessHandle.Info#startInstant()}, is what tells a pid's
 * process from a later one that reused the pid. The JDK adds the ticks to the boot time it reads from
 * {@code /proc/stat} once per JVM, and the kernel derives that boot time from the wall clock: after the
 * clock is stepped (NTP, a resumed virtual machine), two JVMs compute start instants for one process
 * that differ by the step, and a running supervisor looks like a stranger. The ticks never change.
 */
final class ProcessStart {

    /** {@code starttime}'s place among the fields after the command name's closing parenthesis (state is field 3). */
    private static final int START_TIME_AFTER_NAME = 22 - 3;

    private ProcessStart() {
    }

    /** The process's start in ticks since boot; empty once it is gone. */
    static OptionalLong ticksSinceBoot(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return OptionalLong.empty();
        }
        return parse(stat);
    }

    /** Field 22 of a {@code /proc/PID/stat} line; the command name (field 2) may hold spaces and parentheses. */
    static OptionalLong parse(String stat) {
        int nameEnds = stat.lastIndexOf(')');
        if (nameEnds < 0) {
            return OptionalLong.empty();
        }
        String[] fields = stat.substring(nameEnds + 1).trim().split(" ");
        if (fields.length <= START_TIME_AFTER_NAME) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(fields[START_TIME_AFTER_NAME]));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
