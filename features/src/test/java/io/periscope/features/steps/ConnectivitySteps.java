package io.periscope.features.steps;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.periscope.model.policy.ClusterGraph;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Which clusters are connected, and with which cable driver (and options) the policies chose. */
public final class ConnectivitySteps {

    private final ClusterSetUnderTest world;

    public ConnectivitySteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    @Then("the clusters are connected as follows:")
    public void connectedAsFollows(DataTable table) {
        Set<String> expected = new TreeSet<>();
        for (Map<String, String> row : table.asMaps()) {
            expected.add(pair(row.get("clusters")) + " by " + row.get("cable driver").trim()
                    + options(row.getOrDefault("options", "")));
        }
        Set<String> actual = new TreeSet<>();
        for (ClusterGraph.Connection connection : world.deployment().connections()) {
            actual.add(pair(connection.left() + " and " + connection.right()) + " by " + connection.cableDriver().name().yamlName()
                    + options(connection.cableDriver().options().entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "))));
        }
        if (!actual.equals(expected)) {
            throw new AssertionError("the connections are\n  " + String.join("\n  ", actual) + "\nnot\n  " + String.join("\n  ", expected));
        }
    }

    @Then("clusters {word} and {word} are not connected")
    public void notConnected(String a, String b) {
        for (ClusterGraph.Connection connection : world.deployment().connections()) {
            if (Set.of(a, b).equals(Set.of(connection.left(), connection.right()))) {
                throw new AssertionError(a + " and " + b + " are connected by " + connection.cableDriver().name().yamlName());
            }
        }
    }

    /** "client-1 and server" in a fixed order, since a connection has no direction. */
    private static String pair(String text) {
        List<String> clusters = HostNames.words(text);
        if (clusters.size() != 2) {
            throw new IllegalArgumentException("'" + text + "' names no pair of clusters (write 'a and b')");
        }
        return clusters.stream().sorted().collect(Collectors.joining(" and "));
    }

    private static String options(String text) {
        if (text == null || text.isBlank()) {
            return "";
        }
        Map<String, String> options = new TreeMap<>();
        for (String option : text.split(",")) {
            String[] kv = option.trim().split("=", 2);
            options.put(kv[0].trim(), kv.length > 1 ? kv[1].trim() : "");
        }
        return " with " + options;
    }
}
