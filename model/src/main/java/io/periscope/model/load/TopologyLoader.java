package io.periscope.model.load;

import io.periscope.model.topology.ClusterSet;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.ReaderException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads a topology file into a {@link ClusterSet}, or fails with every mistake in it. Reading happens in
 * three steps: SnakeYAML parses the text into nodes that remember their line and column,
 * {@link TopologyReader} maps the nodes onto records, and {@link TopologyValidator} checks the rules that
 * relate values to each other. Both steps run even when the first finds mistakes, so one run shows
 * everything that needs fixing.
 */
public final class TopologyLoader {

    private TopologyLoader() {
    }

    /**
     * Loads the file; {@code file} is named in errors as given. Only a regular file of at most
     * {@link TopologyFileLimits#MAX_FILE_BYTES} is read, and that is decided before reading: a device such as
     * {@code /dev/zero} never ends, a FIFO blocks until someone writes to it, and a file of gigabytes would
     * exhaust memory long before it could be parsed ({@link BoundedTextFile}, which snapshot's kubeconfig uses too).
     */
    public static ClusterSet load(Path file) throws TopologyException {
        return parse(read(file), file.toString());
    }

    /**
     * The file's text, read as {@link #load} reads it: only a regular file of at most
     * {@link TopologyFileLimits#MAX_FILE_BYTES} of UTF-8, anything else refused with the reason and the fix.
     * For a reader that keeps the text (a watch comparing saves) before parsing it.
     */
    public static String read(Path file) throws TopologyException {
        String fileName = file.toString();
        String text;
        try {
            text = BoundedTextFile.read(file, TopologyFileLimits.MAX_FILE_BYTES);
        } catch (BoundedTextFile.RefusedException e) {
            throw switch (e.refusal()) {
                case BoundedTextFile.Directory d -> failure(fileName, "'" + fileName + "' is a directory, not a topology file", "name a .yaml file");
                case BoundedTextFile.NotRegular n -> failure(fileName, "not a regular file (a device, FIFO or socket), so it is not read",
                        "name a .yaml file; to use generated text, write it to a file first");
                case BoundedTextFile.TooLarge t -> tooLarge(fileName, t.bytes());
                case BoundedTextFile.Missing m -> failure(fileName, "file not found",
                        "check the path; it is read relative to " + Path.of("").toAbsolutePath());
                case BoundedTextFile.PermissionDenied p -> failure(fileName, "the file cannot be read: permission denied",
                        "make it readable (chmod a+r " + fileName + ")");
                case BoundedTextFile.NotUtf8 u -> new TopologyException(List.of(new TopologyError(fileName, u.line(), u.column(), "",
                        String.format(Locale.ROOT, "the file is not UTF-8 text: byte 0x%02X here is not valid UTF-8", u.value()),
                        "save the file as UTF-8; a topology file is YAML text (if this is a binary file, name the .yaml file instead)")));
                case BoundedTextFile.Unreadable u -> failure(fileName, "the file cannot be read: " + u.reason(),
                        "check that it is a readable regular file");
            };
        }
        return text;
    }

    private static TopologyException tooLarge(String fileName, long size) {
        return failure(fileName, "the file is " + size + " bytes, more than the " + TopologyFileLimits.describeFileLimit()
                        + " (" + TopologyFileLimits.MAX_FILE_BYTES + " bytes) a topology file may have, so it is not read",
                "split the cluster set, or leave out what the traces do not need; see \"Limits\" in docs/topology.md");
    }

    /** Parses topology text; {@code fileName} is only used to name the source in errors and as the default topology name. */
    public static ClusterSet parse(String yamlText, String fileName) throws TopologyException {
        return parse(yamlText, fileName, true);
    }

    /**
     * Reads a file Periscope itself wrote ({@link TopologyWriter}) from a cluster set it already built,
     * without validating it again: such a set may lack what a person's file must have, e.g. a cluster
     * whose every gateway node failed (the lab's supervisor reads what {@code lab up} built).
     */
    public static ClusterSet loadWritten(Path file) throws TopologyException {
        return parse(read(file), file.toString(), false);
    }

    /** A file that loaded, with what it says that is allowed but hardly meant (a selector matching no cluster). */
    public record Loaded(ClusterSet set, List<TopologyError> warnings) {

        public Loaded {
            warnings = List.copyOf(warnings);
        }
    }

    /** {@link #load}, and the file's warnings, each with its place in the file as an error has. */
    public static Loaded loadWithWarnings(Path file) throws TopologyException {
        String fileName = file.toString();
        MappedTopology mapped = parsed(read(file), fileName, true);
        ClusterSet set = mapped.clusterSet().orElseThrow();
        return new Loaded(set, TopologyWarnings.of(set, mapped.positions(), fileName));
    }

    private static ClusterSet parse(String yamlText, String fileName, boolean validate) throws TopologyException {
        return parsed(yamlText, fileName, validate).clusterSet().orElseThrow();
    }

    /** The file as read, with the positions of its parts; throws when it cannot be used. */
    private static MappedTopology parsed(String yamlText, String fileName, boolean validate) throws TopologyException {
        Node root;
        try {
            LoaderOptions options = TopologyFileLimits.loaderOptions();
            root = new Composer(new ParserImpl(new InMemoryStreamReader(yamlText), options), new RememberingResolver(), options).getSingleNode();
        } catch (MarkedYAMLException e) {
            Optional<TopologyError> limit = TopologyFileLimits.limitHit(fileName, e.getMessage());
            if (limit.isPresent()) {
                throw new TopologyException(List.of(limit.get()));
            }
            throw new TopologyException(List.of(syntaxError(fileName, e)));
        } catch (ReaderException e) {
            throw new TopologyException(List.of(unreadableCharacter(fileName, yamlText, e)));
        } catch (YAMLException e) {
            Optional<TopologyError> limit = TopologyFileLimits.limitHit(fileName, e.getMessage());
            if (limit.isPresent()) {
                throw new TopologyException(List.of(limit.get()));
            }
            throw failure(fileName, "not valid YAML: " + e.getMessage(), "check the file's syntax");
        }
        if (root == null) {
            throw failure(fileName, "the file is empty", "describe the cluster set: name, globalnet, clusters, flows (see docs/topology.md)");
        }
        Optional<TopologyError> expansion = TopologyFileLimits.aliasesTooLarge(fileName, root);
        if (expansion.isPresent()) {
            throw new TopologyException(List.of(expansion.get()));
        }
        MappedTopology mapped = new TopologyReader(fileName).read(root, baseName(fileName));
        List<TopologyError> errors = new ArrayList<>(mapped.errors());
        if (validate) {
            mapped.clusterSet().ifPresent(set ->
                    errors.addAll(TopologyValidator.validate(set, mapped.positions(), mapped.incomplete(), fileName)));
        }
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparingInt((TopologyError e) -> e.line() == 0 ? Integer.MAX_VALUE : e.line())
                    .thenComparingInt(TopologyError::column));
            throw new TopologyException(errors);
        }
        return mapped;
    }

    private static TopologyException failure(String fileName, String problem, String fix) {
        return new TopologyException(List.of(new TopologyError(fileName, 0, 0, "", problem, fix)));
    }

    private static TopologyError syntaxError(String fileName, MarkedYAMLException e) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        int line = mark == null ? 0 : mark.getLine() + 1;
        int column = mark == null ? 0 : mark.getColumn() + 1;
        String problem = e.getProblem() == null ? "malformed" : e.getProblem();
        String context = e.getContext() == null ? "" : e.getContext();
        // SnakeYAML splits some messages as context "expected X" + problem "but found Y"; read in that order.
        String text = context.isEmpty() ? problem
                : problem.startsWith("but ") ? context + ", " + problem
                : problem + " (" + context + ")";
        return new TopologyError(fileName, line, column, "", "not valid YAML: " + text, syntaxFix(text));
    }

    /** The usual causes of SnakeYAML's messages, in the words a person editing the file needs. */
    private static String syntaxFix(String problem) {
        String lower = problem.toLowerCase(Locale.ROOT);
        if (lower.contains("'\\t'") || lower.contains("tab")) {
            return "indent with spaces; YAML does not allow tabs";
        }
        if (lower.contains("mapping values are not allowed")) {
            return "a value that contains ': ' must be quoted; otherwise check that this line is indented like its neighbours";
        }
        if (lower.contains("expected ',' or '}'") || lower.contains("expected ',' or ']'")) {
            return "close every '{' with '}' and every '[' with ']', separating entries with commas";
        }
        if (lower.contains("single document")) {
            return "keep one YAML document in the file (remove the extra '---')";
        }
        if (lower.contains("alias")) {
            return "define the anchor (&name) before using it (*name)";
        }
        return "check the indentation and quoting at this spot";
    }

    private static TopologyError unreadableCharacter(String fileName, String text, ReaderException e) {
        int offset = Math.min(Math.max(e.getPosition(), 0), text.length());
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new TopologyError(fileName, line, offset - lineStart + 1, "",
                "not valid YAML: character U+" + String.format("%04X", e.getCodePoint()) + " is not allowed",
                "remove the control character (or quote it as an escape inside double quotes)");
    }

    /** {@code examples/mag-globalnet.yaml} → {@code mag-globalnet}. */
    static String baseName(String fileName) {
        String name = fileName.replace('\\', '/');
        name = name.substring(name.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
