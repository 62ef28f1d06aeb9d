package io.periscope.lab.ovn;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.command.ProcessCommandRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A private OVN control plane: the northbound and southbound databases ({@code ovsdb-server}) and
 * {@code ovn-northd}, on unix sockets in a directory of the caller's, started by this process and
 * stopped by {@link #close}. No root, no network: it exists to run {@code ovn-trace} on what a
 * programmer wrote into the northbound database, so that real OVN can be compared with the
 * simulator. Needs Debian's {@code ovn-central} (OVN 23.03).
 */
public final class OvnSandbox implements AutoCloseable {

    private static final Path SCHEMAS = Path.of("/usr/share/ovn");
    private static final List<String> PROGRAMS = List.of("ovsdb-tool", "ovsdb-server", "ovn-northd", "ovn-nbctl", "ovn-sbctl", "ovn-trace");

    private final Path directory;
    private final CommandRunner runner = ProcessCommandRunner.here();
    private final List<Process> processes = new ArrayList<>();

    private OvnSandbox(Path directory) {
        this.directory = directory;
    }

    /** Why OVN cannot run here (a program or schema is missing), or empty when it can. */
    public static Optional<String> unavailable() {
        List<String> missing = new ArrayList<>();
        for (String program : PROGRAMS) {
            if (resolve(program).isEmpty()) {
                missing.add(program);
            }
        }
        for (String schema : List.of("ovn-nb.ovsschema", "ovn-sb.ovsschema")) {
            if (!Files.isRegularFile(SCHEMAS.resolve(schema))) {
                missing.add(SCHEMAS.resolve(schema).toString());
            }
        }
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("OVN is not installed (missing " + String.join(", ", missing) + "); install Debian's ovn-central, as ./run-tests does as root");
    }

    /** Creates both databases in {@code directory} and starts their servers and ovn-northd. */
    public static OvnSandbox start(Path directory) {
        OvnSandbox sandbox = new OvnSandbox(directory);
        try {
            sandbox.startAll();
            return sandbox;
        } catch (RuntimeException e) {
            sandbox.close();
            throw e;
        }
    }

    private void startAll() {
        for (String db : List.of("nb", "sb")) {
            runner.run(Command.of(program("ovsdb-tool"), "create", directory.resolve(db + ".db").toString(),
                    SCHEMAS.resolve("ovn-" + db + ".ovsschema").toString()));
            spawn(db, List.of(program("ovsdb-server"), "--remote=punix:" + socket(db), "--unixctl=" + directory.resolve(db + ".ctl"),
                    "--log-file=" + directory.resolve(db + ".log"), "--no-chdir", directory.resolve(db + ".db").toString()));
            awaitSocket(db);
        }
        spawn("northd", List.of(program("ovn-northd"), "--ovnnb-db=" + northbound(), "--ovnsb-db=" + southbound(),
                "--unixctl=" + directory.resolve("northd.ctl"), "--log-file=" + directory.resolve("northd.log")));
    }

    public String northbound() {
        return "unix:" + socket("nb");
    }

    public String southbound() {
        return "unix:" + socket("sb");
    }

    /** Waits until ovn-northd has turned the northbound database into logical flows. */
    public void sync() {
        runner.run(Command.of(program("ovn-nbctl"), "--db=" + northbound(), "--timeout=10", "--wait=sb", "sync"));
    }

    /**
     * Tells the southbound database the MAC of a next hop that lives outside OVN (what
     * ovn-controller would learn by ARP on a real chassis): {@code ovn-trace} resolves a next hop's
     * MAC only from {@code MAC_Binding} rows.
     */
    public void bindMac(String routerPort, String ip, String mac) {
        String datapath = runner.run(Command.of(program("ovn-sbctl"), "--db=" + southbound(), "--bare", "--columns=datapath", "find", "Port_Binding",
                "logical_port=" + routerPort)).stdout().strip();
        if (datapath.isEmpty()) {
            throw new IllegalStateException("the southbound database has no port binding for router port " + routerPort);
        }
        runner.run(Command.of(program("ovn-sbctl"), "--db=" + southbound(), "create", "MAC_Binding", "logical_port=" + routerPort, "ip=\"" + ip + "\"",
                "mac=\"" + mac + "\"", "datapath=" + datapath));
    }

    /** {@code ovn-trace} of a microflow entering {@code datapath}; new connections meet the load balancers. */
    public String trace(String datapath, String microflow) {
        return runner.run(Command.of(program("ovn-trace"), "--db=" + southbound(), "--ct=new", datapath, microflow)).stdout();
    }

    public Path directory() {
        return directory;
    }

    @Override
    public void close() {
        for (Process process : processes.reversed()) {
            process.destroy();
        }
        for (Process process : processes) {
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
    }

    private void spawn(String name, List<String> argv) {
        try {
            Process process = new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectOutput(directory.resolve(name + ".out").toFile()).start();
            processes.add(process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + argv.getFirst(), e);
        }
    }

    private Path socket(String db) {
        return directory.resolve(db + ".sock");
    }

    private void awaitSocket(String db) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.exists(socket(db))) {
            Process last = processes.getLast();
            if (!last.isAlive()) {
                throw new IllegalStateException("ovsdb-server for " + db + " exited with " + last.exitValue() + "; see " + directory.resolve(db + ".out"));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("ovsdb-server for " + db + " made no socket in 10 s; see " + directory.resolve(db + ".out"));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting OVN");
            }
        }
    }

    /** The program on PATH, or in /usr/sbin and /sbin, which a user's PATH often lacks (ovsdb-server lives there). */
    private static Optional<String> resolve(String program) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin"));
        return dirs.stream().filter(d -> !d.isEmpty()).map(d -> Path.of(d, program)).filter(Files::isExecutable).map(Path::toString).findFirst();
    }

    private static String program(String name) {
        return resolve(name).orElseThrow(() -> new IllegalStateException(unavailable().orElse(name + " is missing")));
    }
}
