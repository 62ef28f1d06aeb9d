package io.periscope.dataplane.iptables;

import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Parses {@code iptables-save} output into one {@link SavedTable} per table the model knows
 * (raw, mangle, nat, filter; others such as {@code security} are skipped). Every rule is kept: as a
 * {@link SavedRule.Parsed} record when the model expresses it exactly, as foreign text otherwise.
 */
public final class IptablesSaveParser {

    private IptablesSaveParser() {
    }

    public static Map<Table, SavedTable> parse(String text) {
        Map<Table, SavedTable> tables = new EnumMap<>(Table.class);
        String tableName = null;
        Map<String, List<String>> chainRules = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String line : text.lines().toList()) {
            lineNumber++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("*")) {
                tableName = line.substring(1).strip();
                chainRules = new LinkedHashMap<>();
            } else if (tableName == null) {
                throw new IllegalArgumentException("iptables-save line " + lineNumber + " is outside a table: " + line);
            } else if (line.startsWith(":")) {
                String chain = line.substring(1).split(" ", 2)[0];
                chainRules.put(chain, new ArrayList<>());
            } else if (line.startsWith("-A ")) {
                String[] parts = line.split(" ", 3);
                List<String> rules = chainRules.get(parts[1]);
                if (rules == null) {
                    throw new IllegalArgumentException("iptables-save line " + lineNumber + " appends to undeclared chain " + parts[1]);
                }
                rules.add(parts.length > 2 ? parts[2] : "");
            } else if (line.strip().equals("COMMIT")) {
                final Map<String, List<String>> done = chainRules;
                known(tableName).ifPresent(table -> tables.put(table, table(table, done)));
                tableName = null;
            } else {
                throw new IllegalArgumentException("iptables-save line " + lineNumber + " is not understood: " + line);
            }
        }
        return tables;
    }

    private static SavedTable table(Table table, Map<String, List<String>> chainRules) {
        Set<String> userChains = chainRules.keySet().stream().filter(c -> !table.isBuiltin(c))
                .collect(Collectors.toUnmodifiableSet());
        List<SavedChain> chains = new ArrayList<>();
        chainRules.forEach((name, rules) -> chains.add(new SavedChain(name, rules.stream()
                .map(text -> IptablesRuleParser.parse(text, userChains)
                        .<SavedRule>map(rule -> new SavedRule.Parsed(rule, text))
                        .orElseGet(() -> new SavedRule.Foreign(text)))
                .toList())));
        for (String builtin : table.builtinChains()) {
            if (!chainRules.containsKey(builtin)) {
                chains.add(new SavedChain(builtin, List.of()));
            }
        }
        return new SavedTable(table, chains);
    }

    private static Optional<Table> known(String name) {
        for (Table table : Table.values()) {
            if (table.iptablesName().equals(name)) {
                return Optional.of(table);
            }
        }
        return Optional.empty();
    }
}
