package io.periscope.model.load;

import io.periscope.model.topology.LinkProperties;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a link's properties ({@code rate}, {@code delay}, {@code jitter}, {@code loss}, {@code queue})
 * from a node's {@code uplink} or a {@code cables} entry, in tc's units, and refuses what no link can
 * be: a unit tc does not know, a negative or zero rate, a loss above 100 %, a jitter without a delay.
 * Each finding names the field and the line, as every other error of the file does.
 */
final class LinkPropertiesReader {

    static final List<String> FIELDS = List.of("rate", "delay", "jitter", "loss", "queue");

    /** tc's rate units, SI multiples of bits per second. tc's "kbps" means kilobytes, a classic trap: refused. */
    private static final Map<String, Long> RATE_UNITS =
            Map.of("bit", 1L, "kbit", 1_000L, "mbit", 1_000_000L, "gbit", 1_000_000_000L);
    private static final Map<String, Long> TIME_UNITS_NANOS = Map.of("us", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L);
    private static final Pattern AMOUNT = Pattern.compile("\\s*(-?[0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z%]*)\\s*");

    private final YamlNodeReader yaml;

    LinkPropertiesReader(YamlNodeReader yaml) {
        this.yaml = yaml;
    }

    /** The properties in {@code mapping}'s fields (the caller allowed {@link #FIELDS} among its own); errors reported. */
    LinkProperties read(YamlMapping mapping, String what) {
        OptionalLong rate = mapping.value("rate").flatMap(node -> rate(node, mapping.path("rate"), what))
                .map(OptionalLong::of).orElse(OptionalLong.empty());
        Optional<Duration> delay = mapping.value("delay").flatMap(node -> duration(node, mapping.path("delay"), "delay", what));
        Optional<Duration> jitter = mapping.value("jitter").flatMap(node -> duration(node, mapping.path("jitter"), "jitter", what));
        OptionalDouble loss = mapping.value("loss").flatMap(node -> loss(node, mapping.path("loss"), what))
                .map(OptionalDouble::of).orElse(OptionalDouble.empty());
        OptionalInt queue = mapping.value("queue").flatMap(node -> queue(node, mapping.path("queue"), what))
                .map(OptionalInt::of).orElse(OptionalInt.empty());
        if (jitter.isPresent() && mapping.value("delay").isEmpty()) {
            yaml.error(mapping.fields().get("jitter"), mapping.path("jitter"), "jitter " + LinkProperties.durationText(jitter.get())
                    + " of " + what + " has no delay to vary around", "add a delay, e.g. 'delay: 20ms', or remove jitter");
        } else if (jitter.isPresent() && delay.isPresent() && jitter.get().compareTo(delay.get()) > 0) {
            yaml.error(mapping.fields().get("jitter"), mapping.path("jitter"), "jitter " + LinkProperties.durationText(jitter.get())
                    + " of " + what + " is larger than its delay " + LinkProperties.durationText(delay.get())
                    + "; a packet cannot leave before it arrived", "use a jitter of at most the delay");
        }
        return new LinkProperties(rate, delay, jitter, loss, queue);
    }

    private Optional<Long> rate(Node node, String path, String what) {
        Optional<Amount> amount = amount(node, path, "rate", what, "a rate such as 100mbit (bit, kbit, mbit or gbit)");
        if (amount.isEmpty()) {
            return Optional.empty();
        }
        Long multiplier = RATE_UNITS.get(amount.get().unit().toLowerCase(Locale.ROOT));
        if (multiplier == null) {
            String unit = amount.get().unit().toLowerCase(Locale.ROOT);
            String bytesNote = unit.length() == 4 && unit.endsWith("bps") && RATE_UNITS.containsKey(unit.charAt(0) + "bit")
                    ? "; tc reads " + unit + " as bytes per second, so " + amount.get().text() + " would be "
                    + amount.get().number().multiply(BigDecimal.valueOf(8)).stripTrailingZeros().toPlainString() + unit.charAt(0) + "bit"
                    : "";
            unitError(node, path, "rate", what, amount.get(), "bit, kbit, mbit or gbit (bits per second, as tc spells them)", bytesNote);
            return Optional.empty();
        }
        BigDecimal bits = amount.get().number().multiply(BigDecimal.valueOf(multiplier));
        if (bits.signum() <= 0) {
            yaml.error(node, path, "rate " + amount.get().text() + " of " + what + " is not a rate a link can have",
                    "give a positive rate, e.g. 100mbit, or remove rate for an unshaped link");
            return Optional.empty();
        }
        if (bits.compareTo(BigDecimal.valueOf(LinkProperties.MIN_RATE_BITS)) < 0
                || bits.compareTo(BigDecimal.valueOf(LinkProperties.MAX_RATE_BITS)) > 0) {
            yaml.error(node, path, "rate " + amount.get().text() + " of " + what + " is outside "
                    + LinkProperties.rateText(LinkProperties.MIN_RATE_BITS) + ".." + LinkProperties.rateText(LinkProperties.MAX_RATE_BITS),
                    "give a rate in that range, e.g. 100mbit");
            return Optional.empty();
        }
        return Optional.of(bits.longValue());
    }

    private Optional<Duration> duration(Node node, String path, String field, String what) {
        Optional<Amount> amount = amount(node, path, field, what, "a time such as 20ms (us, ms or s)");
        if (amount.isEmpty()) {
            return Optional.empty();
        }
        Long nanos = TIME_UNITS_NANOS.get(amount.get().unit().toLowerCase(Locale.ROOT));
        if (nanos == null) {
            unitError(node, path, field, what, amount.get(), "us, ms or s", "");
            return Optional.empty();
        }
        BigDecimal value = amount.get().number().multiply(BigDecimal.valueOf(nanos));
        if (value.signum() < 0) {
            yaml.error(node, path, field + " " + amount.get().text() + " of " + what + " is negative",
                    "give a time of 0 or more, e.g. 20ms");
            return Optional.empty();
        }
        if (value.compareTo(BigDecimal.valueOf(LinkProperties.MAX_DELAY.toNanos())) > 0) {
            yaml.error(node, path, field + " " + amount.get().text() + " of " + what + " is longer than "
                    + LinkProperties.durationText(LinkProperties.MAX_DELAY), "give a time up to a minute, e.g. 250ms for a satellite hop");
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(value.longValue()));
    }

    private Optional<Double> loss(Node node, String path, String what) {
        Optional<Amount> amount = amount(node, path, "loss", what, "a percentage such as 0.5%");
        if (amount.isEmpty()) {
            return Optional.empty();
        }
        if (!amount.get().unit().equals("%")) {
            unitError(node, path, "loss", what, amount.get(), "%", "; write loss as a percentage, e.g. 0.5%");
            return Optional.empty();
        }
        double percent = amount.get().number().doubleValue();
        if (percent < 0 || percent > 100) {
            yaml.error(node, path, "loss " + amount.get().text() + " of " + what + " is outside 0%..100%",
                    "give the share of packets lost, from 0% to 100%, e.g. 1%");
            return Optional.empty();
        }
        return Optional.of(percent);
    }

    private Optional<Integer> queue(Node node, String path, String what) {
        Optional<Integer> packets = yaml.integer(node, path);
        if (packets.isPresent() && (packets.get() < 1 || packets.get() > LinkProperties.MAX_QUEUE_PACKETS)) {
            yaml.error(node, path, "queue " + packets.get() + " of " + what + " is outside 1.." + LinkProperties.MAX_QUEUE_PACKETS
                    + " packets", "give the number of packets the link may hold waiting for its rate, e.g. 1000");
            return Optional.empty();
        }
        return packets;
    }

    private record Amount(String text, BigDecimal number, String unit) {
    }

    private Optional<Amount> amount(Node node, String path, String field, String what, String example) {
        Optional<String> text = yaml.text(node, path);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Matcher matcher = AMOUNT.matcher(text.get());
        if (!(node instanceof ScalarNode) || !matcher.matches()) {
            yaml.error(node, path, field + " '" + text.get() + "' of " + what + " is not a number with a unit", "write " + example);
            return Optional.empty();
        }
        return Optional.of(new Amount(text.get().trim(), new BigDecimal(matcher.group(1)), matcher.group(2)));
    }

    private void unitError(Node node, String path, String field, String what, Amount amount, String units, String why) {
        String unit = amount.unit().isEmpty() ? "no unit" : "unit '" + amount.unit() + "'";
        yaml.error(node, path, field + " '" + amount.text() + "' of " + what + " has " + unit + why,
                "write it in " + units + ", e.g. " + example(field));
    }

    private static String example(String field) {
        return switch (field) {
            case "rate" -> "100mbit";
            case "loss" -> "0.5%";
            default -> "20ms";
        };
    }
}
