package io.periscope.dataplane.ovn;

import java.util.List;
import java.util.Optional;

/**
 * What a northbound database holds (rows read back, each with its UUID) or should hold (rows of the
 * plan, without UUIDs).
 */
public record NorthboundState(List<Stored> rows) {

    public static final NorthboundState EMPTY = new NorthboundState(List.of());

    /** A row and, for one read from a database, its {@code _uuid}. */
    public record Stored(NbRow row, Optional<String> uuid) {
    }

    public NorthboundState {
        rows = List.copyOf(rows);
    }

    public static NorthboundState of(List<? extends NbRow> rows) {
        return new NorthboundState(rows.stream().map(r -> new Stored(r, Optional.empty())).toList());
    }

    public List<NbRow> plain() {
        return rows.stream().map(Stored::row).toList();
    }

    public <T extends NbRow> List<T> rows(Class<T> type) {
        return rows.stream().map(Stored::row).filter(type::isInstance).map(type::cast).toList();
    }

    public Optional<Stored> find(String key) {
        return rows.stream().filter(s -> s.row().key().equals(key)).findFirst();
    }
}
