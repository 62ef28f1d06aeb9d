package io.periscope.cli;

import io.periscope.lab.layout.LabNames;
import io.periscope.lab.state.LabState;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.state.SupervisorProcess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** What a lab has on the machine, as the command-line tests look at it from outside: namespaces, processes, sockets. */
final class LabOnTheMachine {

    private LabOnTheMachine() {
    }

    /** The network namespaces of the lab these names belong to. */
    static List<String> namespaces(LabNames names) throws IOException, InterruptedException {
        return Arrays.stream(output("ip", "netns", "list").split("\n")).map(l -> l.split(" ")[0])
                .filter(n -> n.startsWith(names.prefix())).toList();
    }

    /** The processes of {@code program} in these namespaces, as {@code namespace:pid}. */
    static List<String> program(List<String> namespaces, String program) throws IOException, InterruptedException {
        List<String> found = new ArrayList<>();
        for (String namespace : namespaces) {
            for (String pid : pids(namespace)) {
                Path comm = Path.of("/proc", pid, "comm");
                if (Files.exists(comm) && readOrEmpty(comm).strip().equals(program)) {
                    found.add(namespace + ":" + pid);
                }
            }
        }
        return found;
    }

    /**
     * The processes in the namespaces of the lab these names belong to that its supervisor did not start, as
     * {@code namespace:pid command line}. The supervisor, which {@code lab up} leaves running, runs its agents' programs
     * (ip, ipset, iptables-restore, tc) in the nodes' namespaces at any time; a process that ended before it was looked at
     * is not left either.
     */
    static List<String> processesTheSupervisorDidNotStart(LabNames names, List<String> namespaces) throws IOException, InterruptedException {
        long supervisor = new LabStateFile().read(names.hash()).map(LabState::supervisor).map(SupervisorProcess::pid).orElse(-1L);
        List<String> found = new ArrayList<>();
        for (String namespace : namespaces) {
            for (String pid : pids(namespace)) {
                Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(pid));
                if (process.isPresent() && process.get().isAlive() && !descendsFrom(process.get(), supervisor)) {
                    found.add(namespace + ":" + pid + " " + process.get().info().commandLine().orElse("(command line unknown)"));
                }
            }
        }
        return found;
    }

    /**
     * Everything of the lab these names belong to that is still on the machine, described: namespaces, state files
     * (a temporary one too) and the lab's directory, the pods' resolver files under /etc/netns, the supervisor (its delay
     * lines and DNS servers are its threads), and the {@code wireguard-go} daemons that were not running in {@code before}
     * (a daemon whose namespace is gone can no longer be told apart by it), except those inside a named namespace of
     * another lab: a lab of another test or person on the machine, running at the same time, is not this lab's leftover.
     */
    static List<String> leftBehind(LabNames names, java.util.Set<Long> wireGuardBefore) throws IOException, InterruptedException {
        List<String> left = new ArrayList<>();
        namespaces(names).forEach(n -> left.add("namespace " + n));
        Path state = new LabStateFile().pathFor(names.hash()).getParent();
        if (Files.isDirectory(state)) {
            try (var files = Files.list(state)) {
                files.filter(f -> f.getFileName().toString().startsWith("lab-" + names.hash())).forEach(f -> left.add("state " + f));
            }
        }
        Path etcNetns = Path.of("/etc/netns");
        if (Files.isDirectory(etcNetns)) {
            try (var files = Files.list(etcNetns)) {
                files.filter(f -> f.getFileName().toString().startsWith(names.prefix())).forEach(f -> left.add("resolver files " + f));
            }
        }
        ProcessHandle.allProcesses().forEach(process -> {
            String commandLine = commandLine(process.pid());
            if (commandLine.contains("LabSupervisor") && commandLine.contains(names.hash())) {
                left.add("supervisor pid " + process.pid());
            }
            if (readOrEmpty(Path.of("/proc", Long.toString(process.pid()), "comm")).strip().equals("wireguard-go")
                    && !wireGuardBefore.contains(process.pid())) {
                String namespace = namespaceOf(process.pid());
                if (namespace.isEmpty() || namespace.startsWith(names.prefix())) {
                    left.add("wireguard-go pid " + process.pid() + (namespace.isEmpty() ? " (its namespace deleted)" : " in " + namespace));
                }
            }
        });
        return left;
    }

    /** The {@code wireguard-go} daemons running now, by pid. */
    /** The name of the namespace {@code pid} runs in, empty when it has none (deleted, or the machine's own). */
    private static String namespaceOf(long pid) {
        try {
            return output("ip", "netns", "identify", Long.toString(pid)).strip();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    static java.util.Set<Long> wireGuardDaemons() {
        return ProcessHandle.allProcesses().filter(p -> readOrEmpty(Path.of("/proc", Long.toString(p.pid()), "comm")).strip().equals("wireguard-go"))
                .map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
    }

    /** The whole command line, which {@link ProcessHandle.Info} may cut short. */
    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    /** Packet sockets open in these namespaces: /proc/net/packet lists its reader's namespace's, so each is read from inside. */
    static long packetSockets(List<String> namespaces) throws IOException, InterruptedException {
        long sockets = 0;
        for (String namespace : namespaces) {
            sockets += output("ip", "netns", "exec", namespace, "cat", "/proc/net/packet").lines().skip(1).filter(l -> !l.isBlank()).count();
        }
        return sockets;
    }

    /** By pid, from the lab's state file: the supervisor's command line, with the whole class path, is too long to read back. */
    private static boolean descendsFrom(ProcessHandle process, long ancestor) {
        for (Optional<ProcessHandle> up = process.parent(); up.isPresent(); up = up.get().parent()) {
            if (up.get().pid() == ancestor) {
                return true;
            }
        }
        return false;
    }

    private static List<String> pids(String namespace) throws IOException, InterruptedException {
        return output("ip", "netns", "pids", namespace).lines().map(String::strip).filter(p -> !p.isEmpty()).toList();
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    /** What a program printed, both streams. */
    static String output(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return text;
    }
}
