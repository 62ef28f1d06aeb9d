package io.periscope.cli;

import io.periscope.visualizer.server.VisualizerServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The training runs of the launcher's ahead-of-time caches: in one JVM, the commands users wait for of
 * one {@link Family} on a topology file, their output discarded. The JVM records the classes they load
 * and link and the methods' profiles; the launcher's later runs of that family start from that record.
 * Which commands run here decides which start fast, so it follows what {@code scripts/benchmark-startup}
 * measures.
 */
public final class StartupTraining {

    /**
     * The launcher's three caches. The JVM loads every class of a cache when it starts, so each command
     * maps only what its own family needs: a text command none of the layout engine, the web server
     * or the page's assets, and a trace as text not the 400 classes of Jackson the others need.
     */
    enum Family {
        /** trace as text, the command users run most: its cache holds 2,700 classes where TEXT's holds 3,700. */
        TRACE,
        /** Every other command that does not draw: version, trace as JSON, plan, check, a DNS answer. */
        TEXT,
        /** The commands that draw: trace as a page, and serve until its page and document answered. */
        PICTURE
    }

    private StartupTraining() {
    }

    /**
     * {@code args}: the family ({@code trace}, {@code text} or {@code picture}) and the topology file
     * (the launcher passes examples/mag-globalnet.yaml); the file alone trains every family in one cache,
     * as the launchers before the family caches ask (scripts/benchmark-launcher runs one). Exits 0 when
     * every command did.
     */
    public static void main(String[] args) throws Exception {
        List<Family> families = switch (args.length) {
            case 1 -> List.of(Family.values());
            case 2 -> family(args[0]);
            default -> List.of();
        };
        if (families.isEmpty()) {
            System.err.println("usage: StartupTraining [trace|text|picture] TOPOLOGY.yaml");
            System.exit(2);
        }
        // As PeriscopeCommand.main does first: its classes then come from the cache, and a command loads
        // none from the jar, which opening (20,000 entries) would cost.
        Interruption.handleSignals(new PrintWriter(System.err, true));
        List<String> failed = new ArrayList<>();
        for (Family family : families) {
            failed.addAll(train(Path.of(args[args.length - 1]), family));
        }
        if (!failed.isEmpty()) {
            System.err.println("training commands that did not exit 0: " + failed);
        }
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    /** The family {@code name} names, alone; none when it names no family. */
    private static List<Family> family(String name) {
        return switch (name) {
            case "trace" -> List.of(Family.TRACE);
            case "text" -> List.of(Family.TEXT);
            case "picture" -> List.of(Family.PICTURE);
            default -> List.of();
        };
    }

    /** Runs the family's commands on {@code file} and returns those that did not succeed (none, normally). */
    static List<String> train(Path file, Family family) throws IOException, InterruptedException {
        Path scratch = Files.createTempDirectory("periscope-training");
        try {
            String topology = file.toString();
            List<List<String>> commands = switch (family) {
                case TRACE -> List.of(List.of("trace", topology));
                case TEXT -> List.of(
                        List.of("--version"),
                        List.of("trace", topology, "--json"),
                        List.of("plan", topology),
                        List.of("check", topology),
                        List.of("dns", topology, "nginx.default.svc.clusterset.local"));
                case PICTURE -> List.of(List.of("trace", topology, "--html", scratch.resolve("trace.html").toString()));
            };
            List<String> failed = new ArrayList<>();
            PrintWriter discard = new PrintWriter(Writer.nullWriter());
            for (List<String> command : commands) {
                if (PeriscopeCommand.run(command.toArray(String[]::new), discard, discard) != ExitStatus.OK) {
                    failed.add(String.join(" ", command));
                }
            }
            if (family == Family.PICTURE && !servesItsPage(file)) {
                failed.add("serve " + topology);
            }
            return failed;
        } finally {
            try (var files = Files.walk(scratch)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** What a browser asks first of {@code serve}: the page, then the trace document it draws. */
    private static boolean servesItsPage(Path file) throws InterruptedException {
        try (VisualizerServer server = VisualizerServer.start(file, InetAddress.getLoopbackAddress(), 0)) {
            return answers(server.url()) && answers(server.url() + "api/document");
        }
    }

    private static boolean answers(String url) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
            connection.setConnectTimeout(10_000);
            connection.setReadTimeout(60_000);
            try (InputStream in = connection.getInputStream()) {
                in.readAllBytes();
            }
            return connection.getResponseCode() == 200;
        } catch (IOException e) {
            throw new UncheckedIOException(url + " did not answer", e);
        }
    }
}
