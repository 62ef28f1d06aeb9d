package io.periscope.dataplane.sysctl;

import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.change.SysctlChange;
import io.periscope.dataplane.command.Command;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads and writes kernel parameters with {@code sysctl}, which in a namespace (through
 * {@code ip netns exec}) sees that namespace's {@code net.*} values. Keys may be written with dots or
 * slashes; values are compared with runs of whitespace made single spaces, as {@code sysctl}
 * separates the parts of multi-valued parameters with tabs.
 */
public final class SysctlCommands {

    private SysctlCommands() {
    }

    /** {@code sysctl -e KEY...}: {@code -e} leaves out keys that do not exist (yet) instead of failing. */
    public static Command read(Collection<String> keys) {
        List<String> argv = new ArrayList<>(List.of("sysctl", "-e"));
        keys.stream().map(SysctlCommands::normalKey).sorted().forEach(argv::add);
        return new Command(argv, "");
    }

    /** Parses {@code KEY = VALUE} lines into a map keyed by the dotted key. */
    public static Map<String, String> parse(String output) {
        Map<String, String> values = new TreeMap<>();
        for (String line : output.lines().toList()) {
            int equals = line.indexOf(" = ");
            if (equals > 0) {
                values.put(normalKey(line.substring(0, equals).strip()), normalValue(line.substring(equals + 3)));
            }
        }
        return values;
    }

    /** {@code sysctl -w KEY=VALUE...} for the changes that set a value; empty when none does. */
    public static Optional<Command> write(List<? extends DataplaneChange> changes) {
        List<String> argv = new ArrayList<>(List.of("sysctl", "-q", "-w"));
        for (DataplaneChange change : changes) {
            if (change instanceof SysctlChange c && c.after().isPresent()) {
                argv.add(normalKey(c.key()) + "=" + c.after().get());
            }
        }
        return argv.size() == 3 ? Optional.empty() : Optional.of(new Command(argv, ""));
    }

    /** {@code net/ipv4/ip_forward} and {@code net.ipv4.ip_forward} name the same parameter. */
    public static String normalKey(String key) {
        return key.replace('/', '.');
    }

    public static String normalValue(String value) {
        return value.strip().replaceAll("\\s+", " ");
    }
}
