package io.periscope.plan.netfilter;

import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.RandomAccess;
import java.util.function.Function;

/**
 * An unmodifiable list of a table's chains that also finds a chain by name at once. A node of a
 * lab of thousands of pods holds thousands of kube-proxy chains per table, and a diff looks up a
 * chain for every chain and every jump: by a walk of the list that grew with the square of the
 * chains. Equal to any list of the same chains in the same order, as the list it replaces was.
 *
 * @param <T> the chain type ({@link Chain}, or a chain as {@code iptables-save} printed it)
 */
public final class ChainList<T> extends AbstractList<T> implements RandomAccess {

    private final List<T> chains;
    private final Function<T, String> name;
    /**
     * Made on the first {@link #find}: a plan of a large cluster set holds some 5,000 kube-proxy
     * chains per cluster layer, and planning it looks none up, so an index made with each list was a
     * map entry per chain that the garbage collector copied for nothing. Immutable once made; two
     * threads that find at once may each make one, equal.
     */
    private volatile Map<String, T> byName;

    private ChainList(List<T> chains, Function<T, String> name) {
        this.chains = List.copyOf(chains);
        this.name = name;
    }

    private Map<String, T> byName() {
        Map<String, T> index = byName;
        if (index == null) {
            index = new HashMap<>();
            for (T chain : chains) {
                index.putIfAbsent(name.apply(chain), chain);    // the first of a name, as a walk of the list finds it
            }
            byName = index;
        }
        return index;
    }

    /** {@code chains} as they are, when already indexed; otherwise copied and indexed by {@code name}. */
    public static <T> List<T> of(List<T> chains, Function<T, String> name) {
        return chains instanceof ChainList<T> indexed ? indexed : new ChainList<>(chains, name);
    }

    /** The first chain named {@code name} of {@code chains}, by its index when it has one. */
    public static <T> Optional<T> find(List<T> chains, String name, Function<T, String> nameOf) {
        if (chains instanceof ChainList<T> indexed) {
            return Optional.ofNullable(indexed.byName().get(name));
        }
        return chains.stream().filter(c -> nameOf.apply(c).equals(name)).findFirst();
    }

    @Override
    public T get(int index) {
        return chains.get(index);
    }

    @Override
    public int size() {
        return chains.size();
    }
}
