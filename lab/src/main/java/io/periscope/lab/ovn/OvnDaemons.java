package io.periscope.lab.ovn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static io.periscope.lab.ovn.OvnPrograms.program;

/**
 * Starts Open vSwitch and OVN daemons inside a lab namespace, each with its own run directory, and
 * stops them again by their pid files.
 *
 * <p>Every daemon is told its pid file, control socket and log file explicitly, and gets
 * {@code OVS_RUNDIR}, {@code OVN_RUNDIR} and the other directory variables pointing at its owner's
 * directory: ovs-vswitchd puts each bridge's OpenFlow socket ({@code br-int.mgmt}) in
 * {@code OVS_RUNDIR}, and ovn-controller finds it there and puts its own control socket in
 * {@code OVN_RUNDIR}. Left at their defaults ({@code /var/run/openvswitch}) two nodes' daemons would
 * share one socket, or meet an Open vSwitch of the machine's own.
 *
 * <p>Daemons run with {@code --detach}: the launcher returns only once the daemon has opened its
 * databases and sockets, so its exit status is the readiness answer, and the daemon is then no
 * child of this JVM. That is why stopping goes by pid file, and why it can be done from any process
 * (a later {@code lab down}) as long as the run directory is there.
 */
public final class OvnDaemons {

    /** How long a launcher may take to detach, and a stopped daemon to end before it is killed. */
    static final long START_SECONDS = 20;
    public static final long STOP_SECONDS = 5;

    /**
     * The waves daemons are stopped in: those that write into a database before the databases'
     * users, and the databases last, so none of them spends its last moments reconnecting to one
     * already gone. A wave is signalled at once and then awaited: each daemon takes one to two
     * seconds to end after SIGTERM here, which one by one made closing a two-node cluster take 19 s.
     */
    private static final List<List<String>> STOP_WAVES = List.of(List.of("ovn-controller", "ovn-northd"), List.of("ovs-vswitchd"),
            List.of("ovsdb-server", "nb", "sb"));

    private OvnDaemons() {
    }

    /**
     * Starts {@code daemonProgram} in {@code namespace} with its files in {@code directory}, named
     * {@code fileStem}.pid / .log / .ctl (the control socket is passed only to daemons that take
     * {@code --unixctl}).
     *
     * @throws IllegalStateException naming the daemon, its exit status and the end of its log, when it did not start
     */
    static OvnDaemon start(String daemonProgram, String owner, String namespace, Path directory, String fileStem,
                           boolean takesUnixctl, List<String> arguments) {
        Path pidFile = directory.resolve(fileStem + ".pid");
        Path logFile = directory.resolve(fileStem + ".log");
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        argv.add(program(daemonProgram));
        argv.addAll(List.of("--detach", "--no-chdir", "--pidfile=" + pidFile, "--log-file=" + logFile));
        if (takesUnixctl) {
            argv.add("--unixctl=" + directory.resolve(fileStem + ".ctl"));
        }
        argv.addAll(arguments);
        OvnDaemon daemon = new OvnDaemon(daemonProgram, owner, namespace, pidFile, logFile);
        // What the launcher prints before it detaches (a bad argument, a database it cannot open) goes to
        // a file: a pipe would stay open as long as any daemon that inherited it, and reading it could block.
        Path launcherOutput = directory.resolve(fileStem + ".out");
        ProcessBuilder launcher = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(launcherOutput.toFile());
        Map<String, String> environment = launcher.environment();
        for (String variable : List.of("OVS_RUNDIR", "OVS_DBDIR", "OVS_LOGDIR", "OVS_SYSCONFDIR", "OVN_RUNDIR", "OVN_DBDIR",
                "OVN_LOGDIR", "OVN_SYSCONFDIR")) {
            environment.put(variable, directory.toString());
        }
        String output;
        int status;
        try {
            Process process = launcher.start();
            if (!process.waitFor(START_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(daemon + " did not detach within " + START_SECONDS + " s" + logTail(logFile));
            }
            status = process.exitValue();
            output = Files.readString(launcherOutput, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + daemon, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + daemon, e);
        }
        if (status != 0) {
            throw new IllegalStateException(daemon + " failed to start (exit " + status + "): " + output.strip() + logTail(logFile));
        }
        if (pidOf(pidFile).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive).isEmpty()) {
            throw new IllegalStateException(daemon + " detached but is not running (pid file " + pidFile + ")" + logTail(logFile));
        }
        return daemon;
    }

    /** The last lines of a daemon's log, for an error message. */
    static String logTail(Path logFile) {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return "; last lines of " + logFile + ":\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 8), lines.size()));
        } catch (IOException e) {
            return "; its log " + logFile + " cannot be read (" + e.getMessage() + ")";
        }
    }

    /**
     * Stops every daemon whose pid file lies under {@code runDirectory}, in {@link #STOP_WAVES},
     * then removes the directory with its databases, sockets and logs. A pid is signalled only when
     * its process's command line names that very pid file, so a pid reused by another process is
     * left alone. Safe to repeat: a directory already gone is nothing to do.
     *
     * @return the daemons' pids that were running and are now stopped
     */
    public static List<Long> stopAllUnder(Path runDirectory) {
        List<Long> stopped = new ArrayList<>();
        if (!Files.isDirectory(runDirectory)) {
            return stopped;
        }
        List<Path> pidFiles;
        try (Stream<Path> files = Files.walk(runDirectory)) {
            pidFiles = files.filter(p -> p.getFileName().toString().endsWith(".pid")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + runDirectory, e);
        }
        for (int wave = 0; wave <= STOP_WAVES.size(); wave++) {
            int current = wave;
            List<ProcessHandle> signalled = new ArrayList<>();
            for (Path pidFile : pidFiles.stream().filter(p -> wave(p) == current).toList()) {
                ours(pidFile).ifPresent(process -> {
                    process.destroy();
                    signalled.add(process);
                });
            }
            for (ProcessHandle process : signalled) {
                awaitEnd(process);
                stopped.add(process.pid());
            }
        }
        deleteTree(runDirectory);
        return stopped;
    }

    /** The wave a daemon is stopped in, by its pid file's name; one the waves do not name goes last. */
    private static int wave(Path pidFile) {
        String stem = pidFile.getFileName().toString().replaceFirst("\\.pid$", "");
        for (int wave = 0; wave < STOP_WAVES.size(); wave++) {
            if (STOP_WAVES.get(wave).contains(stem)) {
                return wave;
            }
        }
        return STOP_WAVES.size();
    }

    /** The running process of {@code pidFile}, when its command line names that pid file. */
    private static Optional<ProcessHandle> ours(Path pidFile) {
        return pidOf(pidFile).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive)
                .filter(p -> commandLine(p.pid()).contains("--pidfile=" + pidFile));
    }

    /** Waits {@link #STOP_SECONDS} for a signalled daemon to end, then kills it (SIGKILL) and waits as long again. */
    private static void awaitEnd(ProcessHandle handle) {
        try {
            handle.onExit().get(STOP_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            handle.destroyForcibly();
            try {
                handle.onExit().get(STOP_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException again) {
                throw new IllegalStateException("daemon " + handle.pid() + " survived SIGKILL for " + STOP_SECONDS + " s");
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        } catch (InterruptedException e) {
            handle.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    static Optional<Long> pidOf(Path pidFile) {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The process's arguments joined by spaces ({@code /proc/PID/cmdline} separates them with NULs). */
    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    private static void deleteTree(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + directory, e);
        }
    }
}
