package io.periscope.dataplane.iptables;

import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Target;

import java.util.ArrayList;
import java.util.List;

/**
 * Which chains and rules of a table are Periscope's. On a node: every chain the plan declares,
 * every chain whose name starts with one of Periscope's prefixes ({@code SUBMARINER-},
 * {@code SM-GN-}; the lab adds {@code KUBE-} because it plays kube-proxy too), and in built-in chains
 * the rules that jump to those chains or that the plan lists there. {@code claimed} adds the chains
 * and built-in rules of other plans (a rollback owns what the failed plan wrote as well as what the
 * restored state had). Everything else belongs to someone else and is never touched.
 * {@link #everything()} is for comparing two plans, where every chain and rule is Periscope's.
 */
public record ChainOwnership(List<String> prefixes, List<NetfilterTable> claimed, boolean ownsAll) {

    public ChainOwnership {
        prefixes = List.copyOf(prefixes);
        claimed = List.copyOf(claimed);
    }

    public static ChainOwnership prefixes(List<String> prefixes) {
        return new ChainOwnership(prefixes, List.of(), false);
    }

    public static ChainOwnership everything() {
        return new ChainOwnership(List.of(), List.of(), true);
    }

    /** The same ownership, also owning the chains and built-in rules of {@code tables}. */
    public ChainOwnership claiming(List<NetfilterTable> tables) {
        List<NetfilterTable> all = new ArrayList<>(claimed);
        all.addAll(tables);
        return new ChainOwnership(prefixes, all, ownsAll);
    }

    /** A user chain (not built-in) that Periscope owns whole. */
    public boolean ownsChain(String name, NetfilterTable desired) {
        if (desired.table().isBuiltin(name)) {
            return false;
        }
        return ownsAll || desired.chain(name).isPresent() || prefixes.stream().anyMatch(name::startsWith)
                || claimed.stream().anyMatch(t -> t.table() == desired.table() && t.chain(name).isPresent());
    }

    /** A rule of a built-in chain that Periscope put there. */
    public boolean ownsBuiltinRule(String builtinChain, Rule rule, NetfilterTable desired) {
        if (ownsAll) {
            return true;
        }
        if (rule.target() instanceof Target.Jump jump && ownsChain(jump.chain(), desired)) {
            return true;
        }
        return desired.chain(builtinChain).map(Chain::inOrder).orElse(List.of()).contains(rule)
                || claimed.stream().anyMatch(t -> t.table() == desired.table()
                        && t.chain(builtinChain).map(Chain::inOrder).orElse(List.of()).contains(rule));
    }
}
