package io.periscope.dataplane.ovn;

/** One change to a northbound database. */
public sealed interface NbChange {

    NbRow row();

    record Create(NbRow row) implements NbChange {
    }

    /** {@code from} as read (with its UUID), to {@code row}; same {@link NbRow#key}. */
    record Update(NorthboundState.Stored from, NbRow row) implements NbChange {
    }

    record Delete(NorthboundState.Stored from) implements NbChange {
        @Override
        public NbRow row() {
            return from.row();
        }
    }
}
