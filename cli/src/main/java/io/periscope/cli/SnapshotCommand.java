package io.periscope.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.ModelProblem;
import io.periscope.kubernetes.snapshot.LiveSnapshot;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.load.BoundedTextFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code periscope snapshot}: reads live clusters (one kubeconfig context each) into a topology
 * file, so that their cluster set can be traced and checked before it is changed.
 */
@Command(name = "snapshot",
        // --kubeconfig and -o are checked by call() rather than by picocli (see below), so the synopsis says they are required.
        customSynopsis = "periscope snapshot --kubeconfig=FILE -o=FILE [--context=C]... [--name=NAME] [--namespace=NS] [--debug] [-hV]",
        description = "Read live clusters (one kubeconfig context each) into a topology file: nodes, pods, services, exports, "
                + "GlobalEgressIPs, the Cluster objects and the connectivity and connection policies.")
public final class SnapshotCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    // Not picocli-required: a missing one is reported by call(), so an unknown option is named first.
    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "the kubeconfig holding the clusters' contexts")
    private Path kubeconfig;

    @Option(names = "--context", paramLabel = "C", description = "a context to read (repeat for each cluster); default: the current context")
    private List<String> contexts = new ArrayList<>();

    @Option(names = "--namespace", defaultValue = "submariner-operator", paramLabel = "NS",
            description = "where the Cluster, Endpoint and policy objects live (default: ${DEFAULT-VALUE})")
    private String namespace;

    @Option(names = "--name", defaultValue = "snapshot", description = "the topology's name (default: ${DEFAULT-VALUE})")
    private String name;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "where to write the topology file ('-' for standard output)")
    private String output;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "give up on an API server that does not connect or answer within this long (default: ${DEFAULT-VALUE})")
    private int timeoutSeconds;

    /**
     * The largest kubeconfig read: SnakeYAML's default document limit (3 Mi code points), which parsing it
     * here applies anyway; real ones, certificates embedded, are kilobytes per cluster.
     */
    static final long MAX_KUBECONFIG_BYTES = 3L * 1024 * 1024;

    /** The kubeconfig's {@code current-context}, if it names one. */
    private static java.util.Optional<String> currentContextIn(String kubeconfigText) {
        Object root = new org.yaml.snakeyaml.Yaml(new org.yaml.snakeyaml.constructor.SafeConstructor(new org.yaml.snakeyaml.LoaderOptions()))
                .load(kubeconfigText);
        if (root instanceof java.util.Map<?, ?> map && map.get("current-context") instanceof String name && !name.isBlank()) {
            return java.util.Optional.of(name);
        }
        return java.util.Optional.empty();
    }

    /** The context names a kubeconfig defines (fabric8 silently falls back to the current one for an unknown name). */
    private List<String> contextsIn(String kubeconfigText) {
        try {
            Object root = new org.yaml.snakeyaml.Yaml(new org.yaml.snakeyaml.constructor.SafeConstructor(new org.yaml.snakeyaml.LoaderOptions()))
                    .load(kubeconfigText);
            List<String> names = new ArrayList<>();
            if (root instanceof java.util.Map<?, ?> map && map.get("contexts") instanceof List<?> list) {
                for (Object entry : list) {
                    if (entry instanceof java.util.Map<?, ?> context && context.get("name") != null) {
                        names.add(String.valueOf(context.get("name")));
                    }
                }
            }
            return names;
        } catch (RuntimeException e) {
            throw new ParameterException(spec.commandLine(), "--kubeconfig " + kubeconfig + ": not a kubeconfig (" + e.getMessage() + ")");
        }
    }

    /**
     * The kubeconfig's text, read as topology files are (see {@link BoundedTextFile}): a directory, a device
     * such as {@code /dev/zero}, a FIFO or a file of gigabytes is refused before reading, not read until
     * memory runs out or forever.
     */
    private String readKubeconfig() {
        try {
            return BoundedTextFile.read(kubeconfig, MAX_KUBECONFIG_BYTES);
        } catch (BoundedTextFile.RefusedException e) {
            String why = switch (e.refusal()) {
                case BoundedTextFile.Directory d -> "a directory, not a kubeconfig; name the file in it (usually ~/.kube/config)";
                case BoundedTextFile.NotRegular n -> "not a regular file (a device, FIFO or socket), so it is not read;"
                        + " write the kubeconfig to a file first (kubectl config view --raw > FILE)";
                case BoundedTextFile.TooLarge t -> "the file is " + t.bytes() + " bytes, more than the " + MAX_KUBECONFIG_BYTES / (1024 * 1024)
                        + " MiB a kubeconfig may have, so it is not read; write one with only the contexts to read"
                        + " (kubectl config view --raw --minify --context C > FILE)";
                case BoundedTextFile.Missing m -> "no such file (relative names are read from " + Path.of("").toAbsolutePath() + ")";
                case BoundedTextFile.PermissionDenied p -> "permission denied; make it readable by this user";
                case BoundedTextFile.NotUtf8 u -> "not UTF-8 text: byte 0x%02X at line %d, column %d; a kubeconfig is YAML text"
                        .formatted(u.value(), u.line(), u.column());
                case BoundedTextFile.Unreadable u -> "cannot be read: " + u.reason();
            };
            throw new ParameterException(spec.commandLine(), "--kubeconfig " + kubeconfig + ": " + why);
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        List<String> missing = new ArrayList<>();
        if (kubeconfig == null) {
            missing.add("--kubeconfig=FILE");
        }
        if (output == null) {
            missing.add("-o FILE (or -o - for standard output)");
        }
        if (!missing.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "Missing required option" + (missing.size() > 1 ? "s: " : ": ")
                    + String.join(" and ", missing));
        }
        if (timeoutSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--timeout " + timeoutSeconds + ": give at least 1 second");
        }
        String text = readKubeconfig();
        List<String> known = contextsIn(text);
        for (String context : contexts) {
            if (!known.contains(context)) {
                throw new ParameterException(spec.commandLine(), "--context " + context + ": " + kubeconfig + " has no such context; it has " + known);
            }
        }
        if (contexts.isEmpty() && currentContextIn(text).isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--kubeconfig " + kubeconfig + " sets no current-context; name the cluster"
                    + " to read with --context (repeat it for each cluster); its contexts are " + known);
        }
        List<String> wanted = contexts.isEmpty() ? java.util.Collections.singletonList(null) : contexts;
        List<KubernetesClient> clients = new ArrayList<>();
        try {
            List<LiveSnapshot.Source> sources = new ArrayList<>();
            for (String context : wanted) {
                Config config;
                try {
                    config = Config.fromKubeconfig(context, text, kubeconfig.toString());
                } catch (RuntimeException e) {
                    throw new ParameterException(spec.commandLine(), "--kubeconfig " + kubeconfig + (context == null ? "" : " --context " + context)
                            + ": " + e.getMessage());
                }
                // One attempt, bounded: a snapshot is run by a person waiting for it, and the client's
                // default retries with back-off turned an unreachable server into a silent 20 s.
                int millis = Math.toIntExact(Math.min(Integer.MAX_VALUE, timeoutSeconds * 1000L));
                config.setConnectionTimeout(millis);
                config.setRequestTimeout(millis);
                config.setRequestRetryBackoffLimit(0);
                KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
                clients.add(client);
                sources.add(new LiveSnapshot.Source(context == null ? config.getCurrentContext().getName() : context, client, namespace));
            }
            LiveModel model;
            try {
                model = LiveSnapshot.read(name, sources);
            } catch (LiveSnapshot.SnapshotException e) {
                err.println("periscope snapshot: " + e.getMessage());
                err.flush();
                return ExitStatus.BAD_INPUT;
            }
            for (ModelProblem problem : model.problems()) {
                err.println("warning: left out " + problem);
            }
            String file = TopologyWriter.write(model.clusterSet(), "Written by periscope snapshot from " + String.join(", ",
                    sources.stream().map(LiveSnapshot.Source::name).toList()) + ".\nTrace it with ./periscope trace, check it with ./periscope check.");
            if (output.equals("-")) {
                spec.commandLine().getOut().print(file);
                spec.commandLine().getOut().flush();
            } else {
                Files.writeString(Path.of(output), file);
                err.println("wrote " + output + ": " + model.clusterSet().clusters().size() + " clusters");
            }
            err.flush();
            return ExitStatus.OK;
        } finally {
            clients.forEach(KubernetesClient::close);
        }
    }
}
