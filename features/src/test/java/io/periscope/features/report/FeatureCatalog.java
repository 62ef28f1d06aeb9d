package io.periscope.features.report;

import io.cucumber.gherkin.GherkinParser;
import io.cucumber.messages.types.Envelope;
import io.cucumber.messages.types.Examples;
import io.cucumber.messages.types.Feature;
import io.cucumber.messages.types.FeatureChild;
import io.cucumber.messages.types.RuleChild;
import io.cucumber.messages.types.Scenario;
import io.cucumber.messages.types.Tag;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Every scenario of the feature files, read with Cucumber's own Gherkin parser, with the tags it
 * inherits from its feature and rule. The suites filter {@code @pending} scenarios out before they
 * run, so their count and reasons come from here rather than from the run's events.
 */
public record FeatureCatalog(List<Entry> scenarios) {

    public static final String PENDING = "@pending";

    /**
     * Runs on the simulator only: the lab cannot show it for a reason of the lab (no XFRM for
     * Libreswan, no OVN datapath, no Kubernetes API), which the scenario's description gives.
     */
    public static final String SIMULATOR_ONLY = "@simulator-only";

    /** Scenarios (or an outline's Examples) the kubernetes-on-lab suite runs too. */
    public static final String KUBERNETES = "@kubernetes";

    /** Where a simulator-only scenario's description gives the reason. */
    public static final String SIMULATOR_ONLY_REASON = "Simulator only:";

    /**
     * One scenario (an outline counts once per example row).
     *
     * @param description    the text under the scenario's title: for a pending one, why it is pending
     * @param kubernetesRuns how many of its runs are tagged {@code @kubernetes} (the scenario, or the Examples of an outline's rows)
     */
    public record Entry(String file, String feature, Optional<String> rule, String name, Set<String> tags, String description,
                        int runs, int kubernetesRuns) {

        public boolean pending() {
            return tags.contains(PENDING);
        }

        public boolean simulatorOnly() {
            return tags.contains(SIMULATOR_ONLY);
        }

        /** Why the lab cannot run it: the description from its line starting {@code Simulator only:}. */
        public Optional<String> simulatorOnlyReason() {
            int start = description.indexOf(SIMULATOR_ONLY_REASON);
            return start < 0 ? Optional.empty() : Optional.of(description.substring(start).replaceAll("\\s+", " ").strip());
        }

        /** Whether a run of this scenario has {@code runName}: an outline's runs fill its {@code <placeholders>}. */
        public boolean named(String runName) {
            String[] parts = name.split("<[^>]+>", -1);
            StringBuilder pattern = new StringBuilder();
            for (int i = 0; i < parts.length; i++) {
                pattern.append(i == 0 ? "" : ".*").append(java.util.regex.Pattern.quote(parts[i]));
            }
            return runName.matches(pattern.toString());
        }
    }

    public FeatureCatalog {
        scenarios = List.copyOf(scenarios);
    }

    /** The feature files under a classpath directory, as the suites select them. */
    public static FeatureCatalog fromClasspath(String directory) {
        URL url = Thread.currentThread().getContextClassLoader().getResource(directory);
        if (url == null) {
            throw new IllegalStateException("no '" + directory + "' directory on the classpath");
        }
        try {
            return read(Path.of(url.toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(url + " is no file URL", e);
        }
    }

    public static FeatureCatalog read(Path directory) {
        List<Entry> entries = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".feature")).sorted().toList()) {
                entries.addAll(entries(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
        return new FeatureCatalog(entries);
    }

    private static List<Entry> entries(Path file) throws IOException {
        GherkinParser parser = GherkinParser.builder().includeSource(false).includePickles(false).build();
        List<Envelope> envelopes = parser.parse(file).toList();
        envelopes.stream().flatMap(e -> e.getParseError().stream()).findFirst().ifPresent(error -> {
            throw new IllegalStateException(file + ": " + error.getMessage());
        });
        Feature feature = envelopes.stream().flatMap(e -> e.getGherkinDocument().stream()).flatMap(d -> d.getFeature().stream())
                .findFirst().orElseThrow(() -> new IllegalStateException(file + " holds no feature"));
        List<Entry> entries = new ArrayList<>();
        String name = file.getFileName().toString();
        for (FeatureChild child : feature.getChildren()) {
            child.getScenario().ifPresent(s -> entries.add(entry(name, feature, Optional.empty(), List.of(), s)));
            child.getRule().ifPresent(rule -> {
                for (RuleChild ruleChild : rule.getChildren()) {
                    ruleChild.getScenario().ifPresent(s -> entries.add(entry(name, feature, Optional.of(rule.getName()), rule.getTags(), s)));
                }
            });
        }
        return entries;
    }

    private static Entry entry(String file, Feature feature, Optional<String> rule, List<Tag> ruleTags, Scenario scenario) {
        Set<String> tags = new LinkedHashSet<>();
        feature.getTags().forEach(t -> tags.add(t.getName()));
        ruleTags.forEach(t -> tags.add(t.getName()));
        scenario.getTags().forEach(t -> tags.add(t.getName()));
        int runs = scenario.getExamples().isEmpty() ? 1 : scenario.getExamples().stream().mapToInt(FeatureCatalog::rows).sum();
        int kubernetesRuns = tags.contains(KUBERNETES) ? runs : scenario.getExamples().stream()
                .filter(e -> e.getTags().stream().anyMatch(t -> t.getName().equals(KUBERNETES))).mapToInt(FeatureCatalog::rows).sum();
        return new Entry(file, feature.getName(), rule, scenario.getName(), tags, scenario.getDescription().strip(), runs, kubernetesRuns);
    }

    private static int rows(Examples examples) {
        return examples.getTableBody().size();
    }


    public List<Entry> pending() {
        return scenarios.stream().filter(Entry::pending).toList();
    }

    public List<Entry> simulatorOnly() {
        return scenarios.stream().filter(e -> !e.pending() && e.simulatorOnly()).toList();
    }

    /** The scenario of a run, by its feature file's name and the run's name. */
    public Optional<Entry> scenario(String file, String runName) {
        return scenarios.stream().filter(e -> e.file().equals(file) && e.named(runName)).findFirst();
    }

    public int runs() {
        return scenarios.stream().mapToInt(Entry::runs).sum();
    }
}
