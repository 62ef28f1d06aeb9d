package io.periscope.lab.state;

/**
 * The supervisor JVM that {@code lab up} leaves running to keep the lab's agents running: the only
 * process of the lab besides {@code wireguard-go}. Its start is kept with its pid because a pid can be
 * reused after a crash: {@code lab down} signals the pid only while both still match.
 *
 * @param pid        the supervisor's process id
 * @param started    when it started, as {@link ProcessHandle.Info#startInstant()} reported it (ISO-8601), for people:
 *                   another JVM computes another instant once the wall clock was stepped
 * @param startTicks when it started in clock ticks since boot ({@code /proc/PID/stat} field 22), what identifies it;
 *                   0 in a state file written before this was recorded
 * @param directory  its directory (log, control file, status) under the lab's state directory
 */
public record SupervisorProcess(long pid, String started, long startTicks, String directory) {
}
