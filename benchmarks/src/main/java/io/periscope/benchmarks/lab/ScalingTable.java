package io.periscope.benchmarks.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code scripts/benchmark-gateway-scaling}'s table: the {@code lab bench --json} reports of one run,
 * side by side. Each file is named {@code POLICY-OPTION-N.json} (hash policy, nexthop option, active
 * gateways per cluster). Per run it prints the aggregate throughput, the scaling factor over the same
 * option's run with one gateway, that factor over N (seed 004's promise: 1), the aggregate over the
 * kernel's expectation (N gateways times the uplink rate each), the fairness, the retransmissions,
 * and the flows each gateway of the sending cluster carried against the prediction, with whether every
 * side's spread stayed within its sampling error and how many streams left the gateways predicted for
 * them (a TCP socket's hash is drawn anew after a retransmission timeout, which moves it).
 */
public final class ScalingTable {

    private static final Pattern NAME = Pattern.compile("(l3|l4|l3-inner|l4-inner)-(.+)-(\\d+)\\.json");

    record Run(String policy, String option, int gateways, double megabits, double fairness, long retransmits, String perGateway,
               boolean withinSamplingError, double lowestPValue, int offPrediction) {
    }

    private ScalingTable() {
    }

    /** {@code ScalingTable RATE_MBIT FILE...}. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: ScalingTable RATE_MBIT REPORT.json...");
            System.exit(2);
        }
        double rate = Double.parseDouble(args[0]);
        List<Run> runs = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (int i = 1; i < args.length; i++) {
            Path file = Path.of(args[i]);
            Matcher name = NAME.matcher(file.getFileName().toString());
            if (!name.matches()) {
                throw new IllegalArgumentException(file + " is not named POLICY-OPTION-N.json");
            }
            runs.add(run(name.group(1), name.group(2), Integer.parseInt(name.group(3)), json.readTree(file.toFile())));
        }
        System.out.print(table(runs, rate));
    }

    static Run run(String policy, String option, int gateways, JsonNode report) {
        String sending = report.path("pairs").path(0).path("from").asText("cluster1").split("/")[0];
        List<String> counts = new ArrayList<>();
        for (JsonNode g : report.path("gateways")) {
            if (g.path("cluster").asText().equals(sending) && g.path("active").asBoolean()) {
                JsonNode egress = g.path("egress");
                counts.add(String.format(Locale.ROOT, "%d/%.1f", egress.path("measured").asInt(), egress.path("predicted").asDouble()));
            }
        }
        boolean within = true;
        double lowest = Double.NaN;
        for (JsonNode spread : report.path("spread")) {
            within &= spread.path("withinSamplingError").asBoolean(true);
            if (spread.path("pValue").isNumber()) {
                lowest = Double.isNaN(lowest) ? spread.path("pValue").asDouble() : Math.min(lowest, spread.path("pValue").asDouble());
            }
        }
        JsonNode totals = report.path("totals");
        return new Run(policy, option, gateways, totals.path("bitsPerSecond").asDouble() / 1e6, totals.path("fairness").asDouble(),
                totals.path("retransmits").asLong(), String.join(" ", counts), within, lowest,
                report.path("differences").size());
    }

    static String table(List<Run> runs, double rate) {
        Map<String, Double> single = new TreeMap<>();
        runs.stream().filter(r -> r.gateways() == 1).forEach(r -> single.put(r.policy() + "/" + r.option(), r.megabits()));
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-6s %-25s %3s %9s %8s %8s %9s %8s %7s  %-28s %s%n", "policy", "option", "N", "Mbit/s",
                "xN=1", "(xN=1)/N", "/(N*rate)", "fairness", "retrans", "flows per gateway meas/pred", "within sampling error (lowest p), streams off prediction"));
        List<Run> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparing(Run::policy).reversed().thenComparing(Run::option).thenComparingInt(Run::gateways));
        for (Run r : sorted) {
            Double one = single.get(r.policy() + "/" + r.option());
            String scaling = one == null || one == 0 ? "-" : String.format(Locale.ROOT, "%.2f", r.megabits() / one);
            String perGateway = one == null || one == 0 ? "-" : String.format(Locale.ROOT, "%.2f", r.megabits() / one / r.gateways());
            out.append(String.format(Locale.ROOT, "%-6s %-25s %3d %9.1f %8s %8s %9.2f %8.3f %7d  %-28s %s%n", r.policy(), r.option(),
                    r.gateways(), r.megabits(), scaling, perGateway, r.megabits() / (r.gateways() * rate), r.fairness(), r.retransmits(),
                    r.perGateway(), (r.withinSamplingError() ? "yes" : "NO")
                            + (Double.isNaN(r.lowestPValue()) ? "" : String.format(Locale.ROOT, " (p %.2f)", r.lowestPValue())) + ", " + r.offPrediction()));
        }
        return out.toString();
    }
}
