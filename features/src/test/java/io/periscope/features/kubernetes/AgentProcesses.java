package io.periscope.features.kubernetes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The production agents as operating-system processes inside the lab's namespaces: each is
 * {@code ip netns exec NAMESPACE java ... AgentCommand SUBCOMMAND} (through {@link AgentProcessMain}),
 * with the environment and flags its DaemonSet or Deployment in {@code deploy/} gives it, and a
 * kubeconfig naming its API server at the namespace's loopback, where an {@link ApiRelay} of this
 * JVM listens. So each agent programs its node with the real command runner of its own JVM, as in a
 * pod with host networking.
 *
 * <p>The JVMs are kept small and quick to start (the client compiler only, a small heap, the serial
 * collector, and a class-data archive per subcommand written by the first agent that ran it:
 * {@link AgentJvm}). Each process's output goes to a log file of its own; the harness reads from it
 * the time each JVM took to reach {@code main}. Close stops every process it started (SIGTERM first, so
 * leaders release their Leases; then SIGKILL), and so does a JVM shutdown hook; an agent whose
 * harness dies without hooks ends with its standard input.
 */
final class AgentProcesses implements AutoCloseable {

    /** One agent process: what it is, where it runs, and its log. */
    record AgentProcess(String name, String namespace, Process process, Path log, long startedNanos,
                        CompletableFuture<Long> mainAfterMillis) {
    }

    /** SIGTERM to exit: a leader releases its Lease within this; a busy machine may need most of it. */
    private static final long STOP_WITHIN_SECONDS = 10;

    private final Path directory;
    private final AgentJvm jvm = AgentJvm.shared(classpath());
    private final Map<String, ApiRelay> relays = new LinkedHashMap<>();
    private final List<AgentProcess> processes = new ArrayList<>();
    private final Thread hook = Thread.ofPlatform().unstarted(this::stopAll);
    private boolean closed;

    AgentProcesses(Path directory) {
        this.directory = directory;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + directory + " for the agents' logs and kubeconfigs", e);
        }
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Starts {@code args} of {@code periscope-agent} in {@code namespace}, reaching {@code apiServers}
     * (its own API server first: its kubeconfig; the others get a kubeconfig file each, named
     * {@code kubeconfig-PORT}, for flags such as {@code --broker-kubeconfig}) through the namespace's relay.
     *
     * @param args   the subcommand and its flags, with {@code {kubeconfig:PORT}} standing for the file of that API server
     * @param env    what the manifests give through the downward API ({@code CLUSTER_ID}, {@code NODE_NAME}, ...)
     */
    synchronized AgentProcess start(String name, String namespace, List<MockApiServer> apiServers, List<String> args, Map<String, String> env) {
        if (closed) {
            throw new IllegalStateException("the agent processes are stopped; " + name + " cannot start");
        }
        List<InetSocketAddress> addresses = apiServers.stream().map(MockApiServer::address).toList();
        relays.computeIfAbsent(namespace, ApiRelay::open).reach(addresses);
        Function<MockApiServer, Path> kubeconfig = api -> {
            Path file = directory.resolve("kubeconfig-" + api.address().getPort());
            try {
                if (!Files.exists(file)) {
                    Files.writeString(file, api.kubeconfig());
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
            return file;
        };
        List<String> resolved = new ArrayList<>();
        for (String arg : args) {
            String replaced = arg;
            for (MockApiServer api : apiServers) {
                replaced = replaced.replace("{kubeconfig:" + api.address().getPort() + "}", kubeconfig.apply(api).toString());
            }
            resolved.add(replaced);
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String subcommand = resolved.isEmpty() ? "agent" : resolved.getFirst();
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", namespace, java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-Xms16m", "-Xmx128m", "-Xshare:auto",
                // The archive's own notes (classes it skips while writing) would fill the agent's log; its errors still show.
                "-Xlog:cds=error", "-Xlog:cds+dynamic=error"));
        argv.addAll(jvm.archiveOptions(subcommand));
        argv.addAll(List.of("-Dkubernetes.auth.tryServiceAccount=false",
                // HTTP/1.1, as the mock server's own clients speak to it: the JDK client's h2c upgrade through it stalls now and then.
                "-Dkubernetes.http2.disable=true",
                "-cp", jvm.classPath(), AgentProcessMain.class.getName()));
        argv.addAll(resolved);
        Path log = directory.resolve(name.replace('/', '_') + ".log");
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        builder.environment().putAll(env);
        builder.environment().put("KUBECONFIG", kubeconfig.apply(apiServers.getFirst()).toString());
        long started = System.nanoTime();
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            jvm.notStarted(subcommand);
            throw new UncheckedIOException("cannot start the agent " + name + " in " + namespace + ": " + argv, e);
        }
        jvm.started(subcommand, process);
        CompletableFuture<Long> mainAfter = new CompletableFuture<>();
        AgentProcess agent = new AgentProcess(name, namespace, process, log, started, mainAfter);
        processes.add(agent);
        Thread.ofVirtual().name("agent-log-" + name).start(() -> copyLog(agent));
        return agent;
    }

    /** Every agent started, in order. */
    synchronized List<AgentProcess> processes() {
        return List.copyOf(processes);
    }

    /** What each namespace's relay has carried, and which agents have ended, for a message on agents that did not converge. */
    synchronized String describe() {
        StringBuilder text = new StringBuilder("connections relayed to the API servers:");
        relays.forEach((namespace, relay) -> text.append(' ').append(namespace).append('=').append(relay.carried()));
        processes.stream().filter(p -> !p.process().isAlive())
                .forEach(p -> text.append("; ").append(p.name()).append(" ended with ").append(p.process().exitValue()).append(": ").append(tail(p, 5)));
        return text.toString();
    }

    /** Stops one agent as a pod is stopped (SIGTERM, then SIGKILL after a grace period). */
    void stop(AgentProcess agent) {
        synchronized (this) {
            processes.remove(agent);
        }
        stop(List.of(agent), jvm);
    }

    /** What the agent's log says, for a failure message. */
    static String tail(AgentProcess agent, int lines) {
        try {
            List<String> all = Files.readAllLines(agent.log());
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private void copyLog(AgentProcess agent) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(agent.process().getInputStream(), StandardCharsets.UTF_8));
             Writer out = Files.newBufferedWriter(agent.log())) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith(AgentProcessMain.STARTED) && !agent.mainAfterMillis().isDone()) {
                    agent.mainAfterMillis().complete((System.nanoTime() - agent.startedNanos()) / 1_000_000);
                }
                out.write(line);
                out.write('\n');
                out.flush();
            }
        } catch (IOException e) {
            // The process ended or the file went with the lab's directory: nothing more to keep.
        } finally {
            agent.mainAfterMillis().complete(-1L);
        }
    }

    /** The test's own classpath (surefire's full list where it runs the test through a manifest-only jar). */
    private static String classpath() {
        return Optional.ofNullable(System.getProperty("surefire.test.class.path")).filter(p -> !p.isBlank())
                .orElse(System.getProperty("java.class.path"));
    }

    private static void stop(List<AgentProcess> agents, AgentJvm jvm) {
        agents.forEach(a -> a.process().destroy());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WITHIN_SECONDS);
        for (AgentProcess agent : agents) {
            boolean endedBySignal = false;
            try {
                endedBySignal = agent.process().waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (!endedBySignal) {
                    agent.process().destroyForcibly();
                    agent.process().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                agent.process().destroyForcibly();
                Thread.currentThread().interrupt();
            }
            jvm.stopped(agent.process(), endedBySignal);
        }
    }

    private void stopAll() {
        List<AgentProcess> all;
        List<ApiRelay> open;
        synchronized (this) {
            closed = true;
            all = List.copyOf(processes);
            processes.clear();
            open = List.copyOf(relays.values());
            relays.clear();
        }
        stop(all.reversed(), jvm);
        open.forEach(ApiRelay::close);
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // Already shutting down: the hook runs, and finds nothing left.
        }
    }
}
