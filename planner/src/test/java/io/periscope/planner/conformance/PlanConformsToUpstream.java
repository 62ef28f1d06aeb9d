package io.periscope.planner.conformance;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.planner.Planner;
import io.periscope.planner.conformance.ConformanceFixture.Block;
import io.periscope.planner.conformance.ConformanceFixture.BlockKind;
import io.periscope.planner.conformance.ConformanceFixture.NodeSection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each conformance fixture (planner/src/test/resources/conformance) holds what upstream Submariner
 * v0.19.0-rc3 would program on every node of one example, written from upstream's code, and each
 * difference Periscope has from it. Periscope's plan of the example must be exactly upstream's with
 * those differences applied, chain order included; every difference is either mandated by a seed
 * (and its docs/plan.md row says which) or listed in docs/plan.md as open.
 */
class PlanConformsToUpstream {

    static final Path FIXTURES = Path.of("src", "test", "resources", "conformance");
    /** A topology setting as docs/plan.md names it: {@code `egressOwnership: per-gateway`}. */
    private static final Pattern SETTING = Pattern.compile("`([A-Za-z]+): ([A-Za-z0-9-]+)`");

    static Stream<Path> fixtures() throws IOException {
        try (Stream<Path> files = Files.list(FIXTURES)) {
            List<Path> all = files.filter(f -> f.toString().endsWith(".conf")).sorted().toList();
            assertThat(all).as("conformance fixtures in %s", FIXTURES).isNotEmpty();
            return all.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void everyNodesPlanIsUpstreamsWithTheListedDifferences(Path file) throws IOException, TopologyException {
        ConformanceFixture fixture = ConformanceFixture.read(file);
        ClusterSetPlan plan = plan(fixture);
        List<String> failures = new ArrayList<>();
        for (NodeSection section : fixture.nodes()) {
            Optional<String> northbound = section.northboundOf();
            if (northbound.isPresent()) {
                Optional<OvnTopology> ovn = plan.ovn(northbound.get());
                if (ovn.isEmpty()) {
                    failures.add("[" + section.node() + "] " + northbound.get() + " is no OVN-Kubernetes cluster of " + fixture.topology());
                    continue;
                }
                compare(section, CanonicalPlan.northbound(ovn.get()), failures);
                continue;
            }
            HostPlan host = plan.hosts().values().stream().filter(h -> h.role() != HostPlan.HostRole.POD
                    && h.id().toString().equals(section.node())).findFirst().orElse(null);
            if (host == null) {
                failures.add("[" + section.node() + "] is no node of " + fixture.topology());
                continue;
            }
            List<String> actual = new ArrayList<>(CanonicalPlan.of(host.submariner()));
            plan.ovn(host.id().cluster()).ifPresent(ovn -> actual.addAll(CanonicalPlan.bridges(ovn, host.id().name())));
            compare(section, actual, failures);
        }
        assertThat(failures).as("%s against the plan of %s", fixture.name(), fixture.topology()).isEmpty();
    }

    /** The fixture's topology planned as the fixture asks: with its {@code behaviour:} if it gives one. */
    private static ClusterSetPlan plan(ConformanceFixture fixture) throws TopologyException {
        ClusterSet set = TopologyLoader.load(fixture.topology().path());
        return Planner.plan(fixture.behaviour().map(set::withBehaviour).orElse(set));
    }

    private static void compare(NodeSection section, List<String> planLines, List<String> failures) {
        List<String> expected = CanonicalPlan.normalised(section.expected());
        List<String> actual = CanonicalPlan.normalised(planLines);
        if (!expected.equals(actual)) {
            failures.add("[" + section.node() + "] differs (- the fixture: upstream with the listed differences, + Periscope's plan):\n"
                    + LineDiff.unified(expected, actual));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void everyNodeOfTheExampleHasASection(Path file) throws IOException, TopologyException {
        ConformanceFixture fixture = ConformanceFixture.read(file);
        ClusterSetPlan plan = plan(fixture);
        Set<String> nodes = new TreeSet<>();
        plan.hosts().values().stream().filter(h -> h.role() != HostPlan.HostRole.POD).forEach(h -> nodes.add(h.id().toString()));
        // An OVN-Kubernetes cluster's northbound database has a section of its own.
        plan.ovn().forEach(ovn -> nodes.add(ovn.cluster() + " " + NodeSection.NORTHBOUND));
        assertThat(fixture.nodes().stream().map(NodeSection::node).toList()).as("sections of %s", fixture.name())
                .containsExactlyInAnyOrderElementsOf(nodes);
    }

    /** The settings a row names in backticks as {@code `key: value`} that the topology's text sets. */
    static List<String> settingsOptedInto(List<String> row, String topologyText) {
        List<String> settings = new ArrayList<>();
        Matcher setting = SETTING.matcher(String.join(" | ", row));
        while (setting.find()) {
            Pattern inTopology = Pattern.compile("(?m)[\\s{,]" + Pattern.quote(setting.group(1)) + ":\\s+" + Pattern.quote(setting.group(2)) + "(\\s|,|}|$)");
            if (inTopology.matcher(topologyText).find()) {
                settings.add(setting.group(1) + ": " + setting.group(2));
            }
        }
        return settings;
    }

    @Test
    void anOptInRowCountsOnlyWhereTheTopologySetsItsSetting() {
        List<String> row = List.of("one slice of each GlobalEgressIP per active gateway (`egressOwnership: per-gateway`)", "when chosen",
                "deliberate: Periscope's design");
        assertThat(settingsOptedInto(row, "clusters:\n  - name: c1\n    egressOwnership: per-gateway    # a comment\n"))
                .containsExactly("egressOwnership: per-gateway");
        assertThat(settingsOptedInto(row, "clusters:\n  - name: c1\n    egressOwnership: shared\n")).isEmpty();
        assertThat(settingsOptedInto(row, "clusters:\n  - {name: c1, egressOwnership: per-gateway}\n")).containsExactly("egressOwnership: per-gateway");
        assertThat(settingsOptedInto(row, "# egressOwnership: per-gateway-ish\n")).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void everyDifferenceIsSeedMandatedOrListedAsOpen(Path file) throws IOException {
        ConformanceFixture fixture = ConformanceFixture.read(file);
        String topologyText = Files.readString(fixture.topology().path());
        List<String> problems = new ArrayList<>();
        for (NodeSection section : fixture.nodes()) {
            for (Block block : section.blocks()) {
                String where = fixture.name() + ":" + block.lineNumber() + " [" + section.node() + "]";
                switch (block.kind()) {
                    case BlockKind.Upstream u -> {
                        if (!u.file().endsWith(".go") || u.function().isEmpty()) {
                            problems.add(where + ": an upstream block names the Go file and the function it was read in");
                        }
                    }
                    case BlockKind.SeedMandated s -> {
                        List<String> row = PlanDocument.upstreamTableRow(s.place());
                        if (row == null) {
                            problems.add(where + ": no row of docs/plan.md's 'Upstream vs Periscope' table is '" + s.place() + "'");
                        } else if (!row.getLast().startsWith("deliberate:") || !row.getLast().contains("seed " + s.seed())) {
                            problems.add(where + ": the row '" + s.place() + "' does not say 'deliberate:' with seed " + s.seed()
                                    + ", so the difference is not seed-mandated (head it '# open:' and list it)");
                        }
                    }
                    case BlockKind.Open o -> {
                        if (!PlanDocument.openDifferences().contains(o.title())) {
                            problems.add(where + ": '" + o.title() + "' is not listed in docs/plan.md's open differences");
                        }
                    }
                    case BlockKind.OptIn o -> {
                        List<String> row = PlanDocument.upstreamTableRow(o.place());
                        if (row == null) {
                            problems.add(where + ": no row of docs/plan.md's 'Upstream vs Periscope' table is '" + o.place() + "'");
                        } else if (!row.getLast().startsWith("deliberate:") || settingsOptedInto(row, topologyText).isEmpty()) {
                            problems.add(where + ": the row '" + o.place() + "' does not say 'deliberate:' and name, as `key: value`, a setting "
                                    + fixture.topology() + " sets, so the topology did not opt into the difference");
                        }
                    }
                }
                if (block.lines().isEmpty()) {
                    problems.add(where + ": an empty block");
                }
            }
        }
        assertThat(problems).isEmpty();
    }
}
