package io.periscope.dataplane.iptables;

import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Renders netfilter changes as input for {@code iptables-restore --noflush}: one transaction per
 * table, which the kernel applies atomically or not at all. Within it:
 * <ol>
 * <li>{@code :NAME - [0:0]} for every owned chain to create, refill or delete: this creates the
 *     chain or empties it, in the same transaction that refills it, so re-running never appends twice;</li>
 * <li>{@code -D CHAIN n} and {@code -I CHAIN n} (or {@code -A CHAIN} below the last rule) for an owned chain that holds only Periscope's rules
 *     and differs from the plan by a few of them ({@link PositionalEdit}): a long chain taking one
 *     more rule costs one line, not a refill of all of them;</li>
 * <li>{@code -D} of Periscope's rules in built-in chains that are stale or out of place, by rule text;</li>
 * <li>{@code -I CHAIN n} of the missing ones at their position at the top, and {@code -A CHAIN} of
 *     those placed last that are missing ({@link io.periscope.plan.netfilter.HookPosition#LAST});</li>
 * <li>{@code -A} of the refilled chains' rules;</li>
 * <li>{@code -X} of the chains no longer wanted, now empty and no longer jumped to.</li>
 * </ol>
 * Only the lines a change needs are written; a table with nothing to change gets no transaction.
 */
public final class IptablesRestoreRenderer {

    private IptablesRestoreRenderer() {
    }

    /**
     * The minimal transaction that turns {@code current} into {@code desired}, owning the chains the
     * plan declares and those starting with one of {@code ownedPrefixes}; empty if nothing differs.
     */
    public static Optional<String> render(NetfilterTable desired, SavedTable current, List<String> ownedPrefixes) {
        return render(desired.table(), NetfilterDiff.between(current, desired, ChainOwnership.prefixes(ownedPrefixes)), current);
    }

    /**
     * The transaction for {@code changes} of one table (other kinds of change are ignored);
     * {@code current} is the table they were computed from, which says where rules sit.
     */
    public static Optional<String> render(Table table, List<? extends DataplaneChange> changes, SavedTable current) {
        List<String> declarations = new ArrayList<>();
        List<String> edits = new ArrayList<>();
        List<String> deletions = new ArrayList<>();
        List<String> insertions = new ArrayList<>();
        List<String> appends = new ArrayList<>();
        List<String> removals = new ArrayList<>();
        for (DataplaneChange change : changes) {
            switch (change) {
                case ChainChange c when c.table() == table && edited(c, current, edits) -> {
                }
                case ChainChange c when c.table() == table -> {
                    declarations.add(":" + c.name() + " - [0:0]");
                    c.after().ifPresentOrElse(
                            chain -> chain.rules().forEach(r -> appends.add(IptablesSyntax.appendLine(chain.name(), r))),
                            () -> removals.add("-X " + c.name()));
                }
                case BuiltinChainChange b when b.table() == table -> builtin(b, current, deletions, insertions);
                default -> {
                }
            }
        }
        if (declarations.isEmpty() && edits.isEmpty() && deletions.isEmpty() && insertions.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder("*").append(table.iptablesName()).append('\n');
        for (List<String> part : List.of(declarations, edits, deletions, insertions, appends, removals)) {
            part.forEach(line -> text.append(line).append('\n'));
        }
        return Optional.of(text.append("COMMIT\n").toString());
    }

    /**
     * Adds the rule-number edits of an owned chain that stays, if it is worth it. The positions are
     * those of the kernel's chain as read, so a chain holding rules Periscope cannot parse (which
     * the edit could not see, and which a refill removes) is always refilled.
     */
    private static boolean edited(ChainChange change, SavedTable current, List<String> edits) {
        if (change.before().isEmpty() || change.after().isEmpty()) {
            return false;
        }
        Optional<SavedChain> found = current.chain(change.name());
        if (found.isEmpty() || found.get().hasForeignRules()) {
            return false;
        }
        Optional<PositionalEdit<Rule>> edit = PositionalEdit.between(found.get().parsedRules(), change.after().get().rules());
        if (edit.isEmpty() || edit.get().size() == 0) {
            return false;
        }
        String name = change.name();
        edit.get().deletions().forEach(position -> edits.add("-D " + name + " " + position));
        // An insertion below the last rule is an append. iptables-nft must fetch every rule of the
        // table to find rule n for -I (tens of ms at 10,000 rules), but only the chain list for -A.
        int length = found.get().rules().size() - edit.get().deletions().size();
        for (PositionalEdit.Insertion<Rule> insertion : edit.get().insertions()) {
            String rule = IptablesSyntax.rule(insertion.entry());
            edits.add(insertion.position() == length + 1 ? "-A " + name + " " + rule : "-I " + name + " " + insertion.position() + " " + rule);
            length++;
        }
        return true;
    }

    /**
     * The table as the transaction {@link #render} writes for {@code changes} leaves it, computed
     * rather than read back: an owned chain holds exactly its planned rules (or is gone), a built-in
     * chain holds Periscope's planned first rules first, everyone else's after them in their order,
     * and its last rules where they were or, appended, at the end.
     * Empty when {@code current} is not the state the changes were computed from.
     */
    public static Optional<SavedTable> outcome(Table table, List<? extends DataplaneChange> changes, SavedTable current) {
        Map<String, SavedChain> chains = new LinkedHashMap<>();
        current.chains().forEach(chain -> chains.put(chain.name(), chain));
        for (DataplaneChange change : changes) {
            switch (change) {
                case ChainChange c when c.table() == table -> c.after().ifPresentOrElse(
                        chain -> chains.put(chain.name(), new SavedChain(chain.name(), saved(chain.rules()))),
                        () -> chains.remove(c.name()));
                case BuiltinChainChange b when b.table() == table -> {
                    List<SavedRule> found = chains.getOrDefault(b.chain(), new SavedChain(b.chain(), List.of())).rules();
                    Optional<Placement> placement = Placement.of(b, found);
                    if (placement.isEmpty()) {
                        return Optional.empty();
                    }
                    List<SavedRule> after = new ArrayList<>(saved(b.after()));
                    for (int i = 0; i < found.size(); i++) {
                        if (!placement.get().ours()[i] || placement.get().keepsAsLast(i)) {
                            after.add(found.get(i));
                        }
                    }
                    if (!placement.get().keepsLast()) {
                        after.addAll(saved(b.last()));
                    }
                    chains.put(b.chain(), new SavedChain(b.chain(), after));
                }
                default -> {
                }
            }
        }
        return Optional.of(new SavedTable(table, List.copyOf(chains.values())));
    }

    private static List<SavedRule> saved(List<Rule> rules) {
        return rules.stream().<SavedRule>map(rule -> new SavedRule.Parsed(rule, IptablesSyntax.rule(rule))).toList();
    }

    /**
     * Keeps the longest run at the top of the chain that already matches the plan's first rules,
     * and the plan's last rules where they are when they are Periscope's lowest rules in plan order;
     * deletes every other rule of Periscope's, inserts the rest of the first rules below the kept run
     * and appends the last rules that were not kept.
     */
    private static void builtin(BuiltinChainChange change, SavedTable current, List<String> deletions, List<String> insertions) {
        List<SavedRule> found = current.chain(change.chain()).map(SavedChain::rules).orElse(List.of());
        Placement placement = Placement.of(change, found).orElseThrow(() -> new IllegalArgumentException("the "
                + change.table().iptablesName() + " " + change.chain() + " change was computed from another state of the chain than the one given"));
        for (int i = placement.kept(); i < found.size(); i++) {
            if (placement.ours()[i] && !placement.keepsAsLast(i)) {
                deletions.add("-D " + change.chain() + " " + found.get(i).text());
            }
        }
        List<Rule> wanted = change.after();
        for (int i = placement.kept(); i < wanted.size(); i++) {
            insertions.add("-I " + change.chain() + " " + (i + 1) + " " + IptablesSyntax.rule(wanted.get(i)));
        }
        if (!placement.keepsLast()) {
            change.last().forEach(rule -> insertions.add(IptablesSyntax.appendLine(change.chain(), rule)));
        }
    }

    /**
     * Which of a built-in chain's rules a change keeps: {@code ours} marks Periscope's rules (the
     * change's {@code before}, matched in kernel order); the first {@code kept} rules are Periscope's
     * and already its first rules in plan order; from {@code lastFrom} on, Periscope's rules are its
     * last rules in plan order and stay where they are ({@code -1} when they are not all there, and
     * are deleted and appended again).
     */
    private record Placement(boolean[] ours, int kept, int lastFrom) {

        /** Empty when {@code found} is not the state the change was computed from. */
        static Optional<Placement> of(BuiltinChainChange change, List<SavedRule> found) {
            boolean[] ours = new boolean[found.size()];
            int next = 0;
            for (int i = 0; i < found.size() && next < change.before().size(); i++) {
                if (found.get(i) instanceof SavedRule.Parsed p && p.rule().equals(change.before().get(next))) {
                    ours[i] = true;
                    next++;
                }
            }
            if (next != change.before().size()) {
                return Optional.empty();
            }
            List<Rule> wanted = change.after();
            int kept = 0;
            while (kept < wanted.size() && kept < found.size() && ours[kept]
                    && ((SavedRule.Parsed) found.get(kept)).rule().equals(wanted.get(kept))) {
                kept++;
            }
            // A rule is deleted by its text, which removes its first occurrence: shorten the kept run
            // until no rule below it that may be deleted also occurs in it.
            boolean shortened = true;
            while (shortened) {
                shortened = false;
                for (int i = kept; i < found.size() && !shortened; i++) {
                    if (!ours[i]) {
                        continue;
                    }
                    String text = found.get(i).text();
                    for (int j = 0; j < kept; j++) {
                        if (found.get(j).text().equals(text)) {
                            kept = j;
                            shortened = true;
                            break;
                        }
                    }
                }
            }
            return Optional.of(new Placement(ours, kept, lastFrom(ours, kept, found, change.last())));
        }

        /**
         * Where Periscope's lowest rules, below the kept run, are exactly the plan's last rules in
         * order: the position of the first of them, or the chain's length when there are none to keep;
         * -1 when they are not there.
         */
        private static int lastFrom(boolean[] ours, int kept, List<SavedRule> found, List<Rule> last) {
            int matched = last.size();
            int i = found.size() - 1;
            for (; i >= kept && matched > 0; i--) {
                if (!ours[i]) {
                    continue;
                }
                if (!((SavedRule.Parsed) found.get(i)).rule().equals(last.get(matched - 1))) {
                    return -1;
                }
                matched--;
            }
            if (matched > 0) {
                return -1;
            }
            return i + 1;
        }

        boolean keepsLast() {
            return lastFrom >= 0;
        }

        /** Whether the rule at {@code index}, one of Periscope's, stays as one of its last rules. */
        boolean keepsAsLast(int index) {
            return lastFrom >= 0 && index >= lastFrom;
        }
    }
}
