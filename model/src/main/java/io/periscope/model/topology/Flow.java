package io.periscope.model.topology;

import java.util.Optional;

/** A named flow the user wants traced, with what they expect to happen to it. */
public record Flow(String name, FlowSource from, FlowTarget to, Protocol protocol, Optional<Disposition> expect) {
}
