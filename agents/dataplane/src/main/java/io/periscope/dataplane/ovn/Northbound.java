package io.periscope.dataplane.ovn;

import java.util.List;

/**
 * An OVN northbound database: the one side effect of {@link NorthboundProgrammer}. The real one is
 * {@link NbctlNorthbound}; unit tests use the in-memory {@code RecordingNorthbound} of this module's test-jar.
 */
public interface Northbound {

    NorthboundState read();

    /** Applies the changes in one transaction: all or none. */
    void apply(List<NbChange> changes, NorthboundState readBefore);
}
