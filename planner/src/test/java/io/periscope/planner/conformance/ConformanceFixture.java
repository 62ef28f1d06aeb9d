package io.periscope.planner.conformance;

import io.periscope.model.topology.Behaviour;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One conformance fixture: what upstream Submariner would program on each node of an example, read
 * from upstream's code, and the differences Periscope has from it, each in the open.
 *
 * <p>The text format (docs/plan.md, "Conformance with upstream"):
 * <pre>
 * example: path-mtu.yaml
 * behaviour: upstream
 * [cluster1/gw-1]
 * # upstream: pkg/routeagent_driver/handlers/mtu/mtuhandler.go Init
 * ipset create SUBMARINER-LOCALCIDRS hash:net
 * # seed 004: &lt;the first cell of its docs/plan.md row&gt;
 * - a line upstream programs and Periscope does not
 * + a line Periscope programs and upstream does not
 * # open: &lt;the first cell of its row in docs/plan.md's list of open differences&gt;
 * - ...
 * # opt-in: &lt;the first cell of its docs/plan.md row, which names the topology's setting that asks for it&gt;
 * + ...
 * </pre>
 * {@code topology: libreswan-nat.yaml} may stand instead of {@code example:}: a topology of the test resources
 * ({@code conformance/topologies}), for a configuration no example has (gateways behind NAT).
 * {@code behaviour:} is optional: it plans the example with that top-level {@code behaviour}
 * ({@code seeds} or {@code upstream}) whatever the file says, so that one example serves both. A
 * section {@code [CLUSTER northbound]} holds Submariner's rows in an OVN-Kubernetes cluster's
 * northbound database ({@link CanonicalPlan#northbound}); OVN-Kubernetes' own rows are the
 * environment and are in no fixture.
 * Any other line starting with {@code #} is a comment. A node's expected plan is its upstream lines
 * with each difference applied in file order: a {@code -} line takes out a line written above it,
 * a {@code +} line comes in at its place, which decides its position among a chain's rules.
 */
public record ConformanceFixture(String name, Topology topology, Optional<Behaviour> behaviour, List<NodeSection> nodes) {

    private static final Pattern UPSTREAM = Pattern.compile("^# upstream: (\\S+)( .+)?$");
    private static final Pattern SEED = Pattern.compile("^# seed (\\d{3}): (.+)$");
    private static final Pattern OPEN = Pattern.compile("^# open: (.+)$");
    private static final Pattern OPT_IN = Pattern.compile("^# opt-in: (.+)$");
    private static final Pattern SECTION = Pattern.compile("^\\[(\\S+/\\S+|\\S+ " + NodeSection.NORTHBOUND + ")]$");

    public ConformanceFixture {
        nodes = List.copyOf(nodes);
    }

    /** The topology a fixture describes: one of examples/, or one kept for the fixtures alone. */
    public sealed interface Topology {
        String file();

        /** The topology's file, from the planner module's directory. */
        Path path();

        /** A file of examples/, where users find it too. */
        record Example(String file) implements Topology {
            @Override
            public Path path() {
                return Path.of("..", "examples", file);
            }

            @Override
            public String toString() {
                return "examples/" + file;
            }
        }

        /** A file of the fixtures' own (src/test/resources/conformance/topologies): a configuration no example has. */
        record TestTopology(String file) implements Topology {
            @Override
            public Path path() {
                return Path.of("src", "test", "resources", "conformance", "topologies", file);
            }

            @Override
            public String toString() {
                return "conformance/topologies/" + file;
            }
        }
    }

    /** What a block of lines is: upstream's own, or a difference and where it is accounted for. */
    public sealed interface BlockKind {
        /** Lines upstream programs, read in {@code file} ({@code function}). */
        record Upstream(String file, String function) implements BlockKind {
        }

        /** A difference a seed document mandates; {@code place} is the first cell of its row in "Upstream vs Periscope". */
        record SeedMandated(String seed, String place) implements BlockKind {
        }

        /** A difference no seed mandates, listed in docs/plan.md as open; {@code title} is its row there. */
        record Open(String title) implements BlockKind {
        }

        /**
         * A difference the topology asks for with a setting of Periscope's own design, beyond the seeds
         * ({@code egressOwnership: per-gateway}); {@code place} is the first cell of its row in "Upstream vs Periscope",
         * which names the setting.
         */
        record OptIn(String place) implements BlockKind {
        }
    }

    /** One line of a block; {@code sign} is ' ' in an upstream block, '+' or '-' in a difference. */
    public record FixtureLine(char sign, String text, int lineNumber) {
    }

    public record Block(BlockKind kind, List<FixtureLine> lines, int lineNumber) {
        public Block {
            lines = List.copyOf(lines);
        }
    }

    /** A node's section ({@code cluster/node}), or a cluster's northbound database ({@code cluster northbound}). */
    public record NodeSection(String node, List<Block> blocks) {

        static final String NORTHBOUND = "northbound";

        public NodeSection {
            blocks = List.copyOf(blocks);
        }

        /** The cluster whose northbound database the section is, or empty for a node's section. */
        public Optional<String> northboundOf() {
            return node.endsWith(" " + NORTHBOUND) ? Optional.of(node.substring(0, node.indexOf(' '))) : Optional.empty();
        }

        /** Upstream's lines with every difference applied: what Periscope's plan must be. */
        public List<String> expected() {
            List<String> lines = new ArrayList<>();
            for (Block block : blocks) {
                for (FixtureLine line : block.lines()) {
                    switch (line.sign()) {
                        case '-' -> {
                            if (!lines.remove(line.text())) {
                                throw new IllegalStateException("[" + node + "] line " + line.lineNumber() + " takes out '" + line.text()
                                        + "', which no line above it writes");
                            }
                        }
                        default -> lines.add(line.text());
                    }
                }
            }
            return lines;
        }
    }

    public static ConformanceFixture read(Path file) throws IOException {
        List<String> text = Files.readAllLines(file);
        Topology topology = null;
        Behaviour behaviour = null;
        Map<String, List<Block>> sections = new LinkedHashMap<>();
        List<Block> blocks = null;
        BlockKind kind = null;
        List<FixtureLine> lines = new ArrayList<>();
        int blockStart = 0;
        for (int i = 0; i < text.size(); i++) {
            String line = text.get(i).strip();
            int number = i + 1;
            Matcher section = SECTION.matcher(line);
            BlockKind header = header(line);
            if (line.isEmpty() || line.startsWith("#") && header == null) {
                continue;
            }
            if (line.startsWith("example:") || line.startsWith("topology:")) {
                if (topology != null) {
                    throw new IllegalStateException(file + ":" + number + ": a second 'example:' or 'topology:' line");
                }
                String name = line.substring(line.indexOf(':') + 1).strip();
                topology = line.startsWith("example:") ? new Topology.Example(name) : new Topology.TestTopology(name);
            } else if (line.startsWith("behaviour:")) {
                String name = line.substring("behaviour:".length()).strip();
                behaviour = java.util.Arrays.stream(Behaviour.values()).filter(b -> b.yamlName().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalStateException(file + ":" + number + ": no behaviour '" + name + "'"));
            } else if (section.matches() || header != null) {
                if (kind != null) {
                    blocks.add(new Block(kind, lines, blockStart));
                }
                kind = null;
                lines = new ArrayList<>();
                if (section.matches()) {
                    if (sections.containsKey(section.group(1))) {
                        throw new IllegalStateException(file + ":" + number + ": a second section for " + section.group(1));
                    }
                    blocks = new ArrayList<>();
                    sections.put(section.group(1), blocks);
                } else {
                    if (blocks == null) {
                        throw new IllegalStateException(file + ":" + number + ": a block before the first [cluster/node] section");
                    }
                    kind = header;
                    blockStart = number;
                }
            } else {
                if (kind == null) {
                    throw new IllegalStateException(file + ":" + number + ": a line outside a block: " + line);
                }
                lines.add(fixtureLine(file, number, line, kind));
            }
        }
        if (kind != null) {
            blocks.add(new Block(kind, lines, blockStart));
        }
        if (topology == null) {
            throw new IllegalStateException(file + ": no 'example:' or 'topology:' line");
        }
        List<NodeSection> nodes = new ArrayList<>();
        sections.forEach((node, b) -> nodes.add(new NodeSection(node, b)));
        return new ConformanceFixture(file.getFileName().toString(), topology, Optional.ofNullable(behaviour), nodes);
    }

    private static BlockKind header(String line) {
        Matcher upstream = UPSTREAM.matcher(line);
        if (upstream.matches()) {
            return new BlockKind.Upstream(upstream.group(1), upstream.group(2) == null ? "" : upstream.group(2).strip());
        }
        Matcher seed = SEED.matcher(line);
        if (seed.matches()) {
            return new BlockKind.SeedMandated(seed.group(1), seed.group(2).strip());
        }
        Matcher open = OPEN.matcher(line);
        if (open.matches()) {
            return new BlockKind.Open(open.group(1).strip());
        }
        Matcher optIn = OPT_IN.matcher(line);
        return optIn.matches() ? new BlockKind.OptIn(optIn.group(1).strip()) : null;
    }

    private static FixtureLine fixtureLine(Path file, int number, String line, BlockKind kind) {
        if (kind instanceof BlockKind.Upstream) {
            if (line.startsWith("+ ") || line.startsWith("- ")) {
                throw new IllegalStateException(file + ":" + number + ": a difference line in an upstream block (head it '# seed NNN:' or '# open:')");
            }
            return new FixtureLine(' ', line, number);
        }
        if (!line.startsWith("+ ") && !line.startsWith("- ")) {
            throw new IllegalStateException(file + ":" + number + ": a difference block holds only '+ ' and '- ' lines: " + line);
        }
        return new FixtureLine(line.charAt(0), line.substring(2).strip(), number);
    }
}
