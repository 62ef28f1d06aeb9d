package io.periscope.lab.kernel;

import io.periscope.dataplane.TestNamespace;
import io.periscope.lab.netns.NetworkNamespaces;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A few network namespaces of a test's own, joined by veth pairs, to ask the kernel itself what it
 * does with a packet. Names carry the test's tag and this JVM's pid, so tests running at the same
 * time elsewhere on the machine never meet; {@link #close} removes every namespace and stops every
 * process the rig started. Each namespace starts with rp_filter 0 and forwarding on, set before any
 * device exists so that the devices inherit it (a new namespace would otherwise copy the machine's).
 */
final class NamespaceRig implements AutoCloseable {

    static final List<String> TOOLS = List.of("ip", "iptables", "iptables-save", "conntrack", "iperf3", "sysctl", "ss", "bash", "timeout");

    private final String prefix;
    private final List<String> namespaces = new ArrayList<>();
    private final List<Process> started = new ArrayList<>();

    NamespaceRig(String tag) {
        this.prefix = "pk" + tag + ProcessHandle.current().pid() + "-";
    }

    /** Skips the test, saying why, unless it runs as root with every tool the rig needs. */
    static void assumeUsable() {
        Assumptions.assumeTrue(NetworkNamespaces.runningAsRoot(), "kernel tests create network namespaces, which needs root");
        for (String tool : TOOLS) {
            Assumptions.assumeTrue(onPath(tool), tool + " is not installed (./run-tests as root installs iproute2, iptables,"
                    + " conntrack, iperf3 and procps)");
        }
    }

    /** Skips the test unless {@code tool} is installed, naming the Debian package that has it. */
    static void assumeTool(String tool, String debianPackage) {
        Assumptions.assumeTrue(onPath(tool), tool + " is not installed (./run-tests as root installs " + debianPackage + ")");
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (new java.io.File(dir, tool).canExecute()) {
                return true;
            }
        }
        return false;
    }

    String ns(String name) {
        return prefix + name;
    }

    /**
     * Client c (cr 10.77.1.2) and server s (sr 10.77.2.2) on either side of router r (rc 10.77.1.1,
     * rs 10.77.2.1), each end routing the other's subnet through r.
     */
    static NamespaceRig clientRouterServer(String tag) {
        NamespaceRig rig = new NamespaceRig(tag);
        rig.namespace("c").namespace("r").namespace("s")
                .link("c", "cr", "10.77.1.2/24", "r", "rc", "10.77.1.1/24")
                .link("s", "sr", "10.77.2.2/24", "r", "rs", "10.77.2.1/24");
        rig.in("c", "ip", "route", "add", "10.77.2.0/24", "via", "10.77.1.1");
        rig.in("s", "ip", "route", "add", "10.77.1.0/24", "via", "10.77.2.1");
        return rig;
    }

    /** Creates namespace {@code name}: loopback up, forwarding on, rp_filter 0 for all and new devices. */
    NamespaceRig namespace(String name) {
        run("ip", "netns", "add", TestNamespace.deletedOnExit(ns(name)));
        namespaces.add(ns(name));
        in(name, "ip", "link", "set", "lo", "up");
        in(name, "sysctl", "-qw", "net.ipv4.ip_forward=1");
        in(name, "sysctl", "-qw", "net.ipv4.conf.all.rp_filter=0");
        in(name, "sysctl", "-qw", "net.ipv4.conf.default.rp_filter=0");
        return this;
    }

    /** A veth pair: {@code aDev} in {@code a} with {@code aAddr}, {@code bDev} in {@code b} with {@code bAddr} (CIDR notation). */
    NamespaceRig link(String a, String aDev, String aAddr, String b, String bDev, String bAddr) {
        in(a, "ip", "link", "add", aDev, "type", "veth", "peer", "name", bDev, "netns", ns(b));
        in(a, "ip", "addr", "add", aAddr, "dev", aDev);
        in(b, "ip", "addr", "add", bAddr, "dev", bDev);
        in(a, "ip", "link", "set", aDev, "up");
        in(b, "ip", "link", "set", bDev, "up");
        return this;
    }

    /** Runs a program in namespace {@code name}; fails the test when it fails. */
    String in(String name, String... argv) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", ns(name)));
        all.addAll(List.of(argv));
        return run(all.toArray(String[]::new));
    }

    /** Runs a shell script in namespace {@code name}; its exit code, not a failure, is the answer. */
    int script(String name, String script) {
        Result r = exec(List.of("ip", "netns", "exec", ns(name), "timeout", "10", "bash", "-c", script));
        return r.code;
    }

    /** Starts a long-running program in namespace {@code name}; {@link #close} stops it. */
    void background(String name, String... argv) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", ns(name)));
        all.addAll(List.of(argv));
        try {
            Process p = new ProcessBuilder(all).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            started.add(p);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + all, e);
        }
    }

    /** The packet counter of the rule of {@code table} whose {@code iptables-save} line contains {@code ruleText}. */
    long packets(String name, String table, String ruleText) {
        String saved = in(name, "iptables-save", "-c", "-t", table);
        Pattern counted = Pattern.compile("^\\[(\\d+):\\d+\\] (.*)$");
        for (String line : saved.split("\n")) {
            Matcher m = counted.matcher(line);
            if (m.matches() && m.group(2).contains(ruleText)) {
                return Long.parseLong(m.group(1));
            }
        }
        throw new AssertionError("no rule containing \"" + ruleText + "\" in table " + table + " of " + ns(name) + ":\n" + saved);
    }

    /** The namespace's TCP conntrack entries, one a line. */
    List<String> tcpConnections(String name) {
        Result r = exec(List.of("ip", "netns", "exec", ns(name), "conntrack", "-L", "-p", "tcp"));
        return r.out.lines().filter(l -> l.startsWith("tcp")).toList();
    }

    private String run(String... argv) {
        Result r = exec(List.of(argv));
        if (r.code != 0) {
            throw new IllegalStateException(String.join(" ", argv) + " failed (" + r.code + "): " + r.out);
        }
        return r.out;
    }

    private record Result(int code, String out) {
    }

    private static Result exec(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "timed out");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + argv, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + argv, e);
        }
    }

    @Override
    public void close() {
        for (Process p : started) {
            p.destroy();
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (String namespace : namespaces) {
            exec(List.of("ip", "netns", "del", namespace));
        }
    }
}
