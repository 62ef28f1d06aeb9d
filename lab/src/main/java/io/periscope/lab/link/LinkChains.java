package io.periscope.lab.link;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The link layer's chains in a node's {@code mangle} table, as {@code iptables-restore --noflush}
 * input and as {@code iptables-save -t mangle} shows them.
 *
 * <p>{@value #IN} (jumped to from {@code PREROUTING}) and {@value #OUT} (from {@code POSTROUTING})
 * hold an uplink's loss and delay for packets arriving and leaving by the node's devices on a
 * switch; {@value #CABLE} (from {@code OUTPUT} and {@code FORWARD}) a cable's, for packets leaving
 * {@code wan0} to the other cluster's gateways. The {@code LAB-LINK-} chains belong to no agent:
 * Periscope's owns {@code SUBMARINER-} and {@code SM-GN-}, the lab's kube-proxy {@code KUBE-}, and each
 * leaves chains and built-in rules it does not own where they are.
 *
 * <p>Each jump is the last rule of its built-in chain, and stays so: when the delay line hands a
 * queued packet back, the kernel goes on with the next table's hook, not with the rest of the chain
 * it was queued from, so whatever came after the jump would be skipped for every delayed packet
 * (Periscope's mangle rules mark packets and clamp MSS there). The agents put their own jumps on top.
 */
public final class LinkChains {

    public static final String PREFIX = "LAB-LINK-";
    public static final String IN = PREFIX + "IN";
    public static final String OUT = PREFIX + "OUT";
    public static final String CABLE = PREFIX + "CABLE";
    /** In the order their rules are listed. */
    public static final List<String> CHAINS = List.of(IN, OUT, CABLE);

    private LinkChains() {
    }

    /** The built-in chains that jump to {@code chain}. */
    public static List<String> hooks(String chain) {
        return switch (chain) {
            case IN -> List.of("PREROUTING");
            case OUT -> List.of("POSTROUTING");
            case CABLE -> List.of("OUTPUT", "FORWARD");
            default -> throw new IllegalArgumentException("not a link chain: " + chain);
        };
    }

    /**
     * The chains as {@code iptables-save} would show them for {@code rules}: each chain with rules and
     * the rule lines of every built-in chain that should jump to it (last).
     */
    public static Saved expected(List<LinkRule> rules) {
        Map<String, List<String>> chains = new LinkedHashMap<>();
        for (LinkRule rule : rules) {
            chains.computeIfAbsent(rule.chain(), c -> new ArrayList<>()).add(rule.saveLine());
        }
        return new Saved(chains, Map.of());
    }

    /**
     * What {@code iptables-save -t mangle} shows of the link chains.
     *
     * @param chains   each {@code LAB-LINK-} chain's rule lines (a declared chain without rules has an empty list)
     * @param builtins every built-in chain's rule lines, in order (to tell whether a jump is last)
     */
    public record Saved(Map<String, List<String>> chains, Map<String, List<String>> builtins) {

        public Saved {
            chains = copy(chains);
            builtins = copy(builtins);
        }

        private static Map<String, List<String>> copy(Map<String, List<String>> map) {
            Map<String, List<String>> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            return copy;
        }

        /** How many times built-in chain {@code builtin} jumps to {@code chain}. */
        int jumps(String builtin, String chain) {
            return (int) builtins.getOrDefault(builtin, List.of()).stream().filter(line -> line.equals(jump(builtin, chain))).count();
        }

        /** Whether {@code builtin}'s only jump to {@code chain} is its last rule. */
        boolean jumpsLast(String builtin, String chain) {
            List<String> lines = builtins.getOrDefault(builtin, List.of());
            return jumps(builtin, chain) == 1 && lines.getLast().equals(jump(builtin, chain));
        }
    }

    /** Parses {@code iptables-save -t mangle}. */
    public static Saved parse(String save) {
        Map<String, List<String>> chains = new LinkedHashMap<>();
        Map<String, List<String>> builtins = new LinkedHashMap<>();
        boolean mangle = false;
        for (String raw : save.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("*")) {
                mangle = line.equals("*mangle");
                continue;
            }
            if (!mangle || line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith(":")) {
                String name = line.substring(1).split(" ")[0];
                if (name.startsWith(PREFIX)) {
                    chains.putIfAbsent(name, new ArrayList<>());
                }
                continue;
            }
            if (line.startsWith("-A ")) {
                String chain = line.split(" ")[1];
                if (chain.startsWith(PREFIX)) {
                    chains.computeIfAbsent(chain, c -> new ArrayList<>()).add(line);
                } else {
                    builtins.computeIfAbsent(chain, c -> new ArrayList<>()).add(line);
                }
            }
        }
        return new Saved(chains, builtins);
    }

    /** The differences between what {@code current} holds and {@code rules} asks, one line each; empty when none. */
    public static List<String> differences(Saved current, List<LinkRule> rules) {
        Saved wanted = expected(rules);
        List<String> differences = new ArrayList<>();
        for (String chain : CHAINS) {
            Optional<List<String>> want = Optional.ofNullable(wanted.chains().get(chain));
            Optional<List<String>> have = Optional.ofNullable(current.chains().get(chain));
            if (want.isEmpty()) {
                have.ifPresent(h -> differences.add("chain " + chain + " (" + h.size() + " rules) is no longer wanted"));
                continue;
            }
            if (have.isEmpty()) {
                differences.add("chain " + chain + " is missing");
            } else if (!have.get().equals(want.get())) {
                differences.add("chain " + chain + " holds " + have.get().size() + " rules, not the " + want.get().size() + " wanted"
                        + firstDifference(have.get(), want.get()));
            }
            for (String hook : hooks(chain)) {
                if (!current.jumpsLast(hook, chain)) {
                    differences.add(hook + " does not end with one jump to " + chain + " (" + current.jumps(hook, chain) + " jumps)");
                }
            }
        }
        current.chains().keySet().stream().filter(c -> !CHAINS.contains(c))
                .forEach(c -> differences.add("chain " + c + " is not one of the link layer's"));
        return differences;
    }

    private static String firstDifference(List<String> have, List<String> want) {
        for (int i = 0; i < Math.max(have.size(), want.size()); i++) {
            String h = i < have.size() ? have.get(i) : "(none)";
            String w = i < want.size() ? want.get(i) : "(none)";
            if (!h.equals(w)) {
                return ": rule " + (i + 1) + " is '" + h + "', wanted '" + w + "'";
            }
        }
        return "";
    }

    /**
     * One {@code iptables-restore --noflush} transaction that takes {@code current} to {@code rules}:
     * every jump to a link chain deleted (as many times as it is there), every link chain flushed, those
     * no longer wanted deleted, the wanted ones declared, jumped to last and filled. The table changes
     * at once or not at all.
     */
    public static String restore(Saved current, List<LinkRule> rules) {
        Saved wanted = expected(rules);
        StringBuilder text = new StringBuilder("*mangle\n");
        for (String chain : CHAINS) {
            if (wanted.chains().containsKey(chain) && !current.chains().containsKey(chain)) {
                text.append(':').append(chain).append(" - [0:0]\n");
            }
        }
        List<String> present = new ArrayList<>(current.chains().keySet());
        for (String chain : present) {
            for (String hook : current.builtins().keySet()) {
                for (int i = 0; i < current.jumps(hook, chain); i++) {
                    text.append("-D ").append(hook).append(" -j ").append(chain).append('\n');
                }
            }
            text.append("-F ").append(chain).append('\n');
            if (!wanted.chains().containsKey(chain)) {
                text.append("-X ").append(chain).append('\n');
            }
        }
        for (String chain : CHAINS) {
            List<String> lines = wanted.chains().get(chain);
            if (lines == null) {
                continue;
            }
            for (String hook : hooks(chain)) {
                text.append(jump(hook, chain)).append('\n');
            }
            lines.forEach(line -> text.append(line).append('\n'));
        }
        return text.append("COMMIT\n").toString();
    }

    private static String jump(String builtin, String chain) {
        return "-A " + builtin + " -j " + chain;
    }
}
