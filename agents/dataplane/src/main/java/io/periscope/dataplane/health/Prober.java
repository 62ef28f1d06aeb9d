package io.periscope.dataplane.health;

import io.periscope.model.net.Ipv4Address;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;

/** Sends one probe to each target at once and says which answered within the timeout: the health checker's only side effect. */
public interface Prober extends AutoCloseable {

    Set<Ipv4Address> round(Collection<Ipv4Address> targets, Duration timeout);

    @Override
    void close();
}
