package io.periscope.lab.machine;

/** A topology's address space overlapping the machine's own. */
public record AddressConflict(TopologyAddress topology, MachinePrefix machine) {

    public String describe() {
        return topology.field() + " = " + topology.prefix() + " overlaps the machine's " + machine.origin();
    }
}
