package io.periscope.dataplane.ipset;

import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.change.IpSetChange;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders ipset changes as input for {@code ipset restore}, in two parts because iptables rules
 * name sets and the kernel refuses to destroy a set a rule still uses:
 * <ul>
 * <li>{@link #renderUpdates}: creations ({@code create -exist}) and membership changes
 *     ({@code add}/{@code del -exist} of exactly the members that differ). The reconciler runs this
 *     <em>before</em> the iptables transactions, so every set a new rule names exists.</li>
 * <li>{@link #renderDestructions}: {@code destroy} of sets no longer wanted. The reconciler runs
 *     this <em>last</em>, after the iptables transactions removed the rules that named them.</li>
 * </ul>
 * A set whose type changes is destroyed and created again in the first part; the kernel refuses
 * that while a rule names the set, and {@code ipset swap} cannot bridge types either.
 */
public final class IpsetRestoreRenderer {

    private IpsetRestoreRenderer() {
    }

    public static Optional<String> renderUpdates(List<? extends DataplaneChange> changes) {
        StringBuilder text = new StringBuilder();
        for (DataplaneChange change : changes) {
            if (!(change instanceof IpSetChange c) || c.after().isEmpty()) {
                continue;
            }
            IpSet after = c.after().get();
            Optional<IpSet> before = c.before().filter(b -> b.type() == after.type());
            if (c.before().isPresent() && before.isEmpty()) {
                text.append("destroy ").append(after.name()).append('\n');
            }
            if (before.isEmpty()) {
                text.append("create ").append(after.name()).append(' ').append(after.type().ipsetName())
                        .append(" family inet -exist\n");
            }
            Set<Ipv4Prefix> had = before.map(b -> (Set<Ipv4Prefix>) new TreeSet<>(b.members())).orElse(Set.of());
            Set<Ipv4Prefix> wanted = new TreeSet<>(after.members());
            for (Ipv4Prefix member : had) {
                if (!wanted.contains(member)) {
                    text.append("del ").append(after.name()).append(' ').append(member(after, member)).append(" -exist\n");
                }
            }
            for (Ipv4Prefix member : wanted) {
                if (!had.contains(member)) {
                    text.append("add ").append(after.name()).append(' ').append(member(after, member)).append(" -exist\n");
                }
            }
        }
        return text.isEmpty() ? Optional.empty() : Optional.of(text.toString());
    }

    public static Optional<String> renderDestructions(List<? extends DataplaneChange> changes) {
        StringBuilder text = new StringBuilder();
        for (DataplaneChange change : changes) {
            if (change instanceof IpSetChange c && c.isRemoval()) {
                text.append("destroy ").append(c.name()).append('\n');
            }
        }
        return text.isEmpty() ? Optional.empty() : Optional.of(text.toString());
    }

    /** ipset prints a /32 as a bare address; a hash:ip set holds only single addresses. */
    private static String member(IpSet set, Ipv4Prefix member) {
        if (member.length() == 32) {
            return member.network().toString();
        }
        if (set.type() == IpSetType.HASH_IP) {
            throw new IllegalArgumentException("hash:ip set " + set.name() + " cannot hold " + member
                    + "; use hash:net or list the addresses one by one");
        }
        return member.toString();
    }
}
