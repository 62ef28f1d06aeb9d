package io.periscope.planner;

import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/plan.md's "Upstream vs Periscope" table must not fall behind the planner: every chain
 * Periscope owns and every ipset that the plan of any shipped example (and of the variants below)
 * holds is named in the first column of a row, and every row says whether it is the same as
 * upstream or why not. A name with a hash or a variable part is written with a placeholder, as in
 * {@code KUBE-SVC-<hash>}.
 */
class UpstreamTableNamesEveryChainAndSet {

    private static final Path DOC = Path.of("..", "docs", "plan.md");
    private static final String SECTION = "## Upstream vs Periscope";
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^>]+>");
    private static final List<String> VERDICTS = List.of("same", "deliberate:", "not done:");

    /** The table's rows, each split into its cells. */
    private static List<List<String>> rows() throws IOException {
        List<String> lines = Files.readAllLines(DOC);
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(SECTION)) {
                start = i;
                break;
            }
        }
        assertThat(start).as("docs/plan.md has a section '%s'", SECTION).isNotNegative();
        List<List<String>> rows = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i).strip();
            if (!line.startsWith("|") || line.startsWith("| ---") || line.startsWith("| rule, chain")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String cell : line.substring(1, line.length() - 1).split("(?<!\\\\)\\|", -1)) {
                cells.add(cell.strip());
            }
            rows.add(cells);
        }
        return rows;
    }

    /** Every word of the backticked text of the rows' first cells, as a pattern for whole names. */
    private static List<Pattern> namesInTheTable(List<List<String>> rows) {
        List<Pattern> names = new ArrayList<>();
        for (List<String> row : rows) {
            Matcher code = CODE.matcher(row.getFirst());
            while (code.find()) {
                for (String word : code.group(1).split("[\\s,/]+")) {
                    if (!word.isEmpty()) {
                        names.add(namePattern(word));
                    }
                }
            }
        }
        return names;
    }

    private static Pattern namePattern(String word) {
        StringBuilder regex = new StringBuilder();
        Matcher placeholder = PLACEHOLDER.matcher(word);
        int at = 0;
        while (placeholder.find()) {
            regex.append(Pattern.quote(word.substring(at, placeholder.start()))).append("[A-Za-z0-9_.-]+");
            at = placeholder.end();
        }
        regex.append(Pattern.quote(word.substring(at)));
        return Pattern.compile(regex.toString());
    }

    /** The shipped examples, and variants that bring in what none of them uses. */
    private static Map<String, ClusterSet> clusterSets() throws IOException {
        Map<String, ClusterSet> sets = new TreeMap<>();
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                sets.put(file.getFileName().toString(), PlannedExamples.load(file.getFileName().toString()));
            }
        }
        String globalnet = Files.readString(PlannedExamples.example("globalnet-egress.yaml"));
        sets.put("globalnet-egress.yaml, legacy Globalnet",
                PlannedExamples.parse(globalnet.replace("  clusterSize: 65536\n", "  clusterSize: 65536\n  mode: legacy\n")));
        sets.put("globalnet-egress.yaml, a masquerading CNI",
                PlannedExamples.parse(globalnet.replace("    cni: kube-proxy\n", "    cni: kube-proxy\n    cniMasquerade: outside-pod-cidrs\n")));
        sets.put("mag-vanilla.yaml, Libreswan", PlannedExamples.withDefaultDriver(PlannedExamples.load("mag-vanilla.yaml"), CableDriver.LIBRESWAN));
        sets.put("mag-vanilla.yaml, WireGuard", PlannedExamples.withDefaultDriver(PlannedExamples.load("mag-vanilla.yaml"), CableDriver.WIREGUARD));
        return sets;
    }

    /** Each chain Periscope owns and each ipset, with the first plan that holds it. */
    private static SortedMap<String, String> emittedNames() throws IOException {
        SortedMap<String, String> names = new TreeMap<>();
        for (Map.Entry<String, ClusterSet> set : clusterSets().entrySet()) {
            ClusterSetPlan plan = Planner.plan(set.getValue());
            for (HostPlan host : plan.hosts().values()) {
                for (DataplanePlan layer : List.of(host.environment(), host.kubeProxy(), host.submariner())) {
                    for (NetfilterTable table : layer.netfilter()) {
                        for (Chain chain : table.ownedChains()) {
                            names.putIfAbsent(chain.name(), set.getKey() + " " + host.id() + " " + table.table());
                        }
                    }
                    for (IpSet ipset : layer.ipsets()) {
                        names.putIfAbsent(ipset.name(), set.getKey() + " " + host.id() + " ipset");
                    }
                }
            }
        }
        return names;
    }

    @Test
    void everyChainAndIpsetThePlannerEmitsHasARow() throws IOException {
        List<Pattern> documented = namesInTheTable(rows());
        SortedMap<String, String> missing = new TreeMap<>();
        emittedNames().forEach((name, where) -> {
            if (documented.stream().noneMatch(p -> p.matcher(name).matches())) {
                missing.put(name, where);
            }
        });
        assertThat(missing).as("chains and ipsets the planner emits that docs/plan.md's '%s' table does not name"
                + " (add a row: same as upstream, or deliberate and why)", SECTION).isEmpty();
    }

    @Test
    void everyRowSaysSameOrWhyNot() throws IOException {
        List<List<String>> rows = rows();
        assertThat(rows).hasSizeGreaterThan(40);
        for (List<String> row : rows) {
            String verdict = row.getLast();
            assertThat(VERDICTS).as("verdict of the row '%s'", row.getFirst()).anyMatch(verdict::startsWith);
        }
    }
}
