package io.periscope.dataplane.ovn;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A northbound database in memory, for tests: it applies changes to its rows (giving new rows
 * UUIDs) and records every transaction. It checks what OVSDB would refuse of a diff (updating or
 * deleting a row that is not there, creating one whose key exists), so a wrong diff fails here too.
 */
public final class RecordingNorthbound implements Northbound {

    private final List<NorthboundState.Stored> rows = new ArrayList<>();
    private final List<List<NbChange>> transactions = new ArrayList<>();
    private final AtomicInteger next = new AtomicInteger();

    public RecordingNorthbound(List<? extends NbRow> initial) {
        initial.forEach(r -> rows.add(new NorthboundState.Stored(r, Optional.of(uuid()))));
    }

    @Override
    public NorthboundState read() {
        return new NorthboundState(rows);
    }

    @Override
    public void apply(List<NbChange> changes, NorthboundState readBefore) {
        for (NbChange change : changes) {
            switch (change) {
                case NbChange.Create c -> {
                    if (rows.stream().anyMatch(s -> s.row().key().equals(c.row().key()))) {
                        throw new IllegalStateException("creates " + c.row().key() + ", which exists");
                    }
                    rows.add(new NorthboundState.Stored(c.row(), Optional.of(uuid())));
                }
                case NbChange.Update u -> rows.set(indexOf(u.from()), new NorthboundState.Stored(u.row(), u.from().uuid()));
                case NbChange.Delete d -> rows.remove(indexOf(d.from()));
            }
        }
        transactions.add(List.copyOf(changes));
    }

    private int indexOf(NorthboundState.Stored stored) {
        int i = rows.indexOf(stored);
        if (i < 0) {
            throw new IllegalStateException("changes " + stored.row().key() + ", which is not there");
        }
        return i;
    }

    /** Every transaction applied so far, in order. */
    public List<List<NbChange>> transactions() {
        return List.copyOf(transactions);
    }

    private String uuid() {
        return "00000000-0000-0000-0000-" + String.format("%012d", next.incrementAndGet());
    }
}
