package io.periscope.dataplane.sysctl;

import io.periscope.dataplane.Captured;
import io.periscope.dataplane.change.SysctlChange;
import io.periscope.dataplane.command.Command;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SysctlCommandsReadAndWriteKeys {

    @Test
    void readsValuesAndLeavesOutKeysThatDoNotExist() {
        assertThat(SysctlCommands.parse(Captured.read("sysctl.txt"))).containsExactly(
                Map.entry("net.ipv4.fib_multipath_hash_policy", "1"),
                Map.entry("net.ipv4.ip_forward", "1"),
                Map.entry("net.ipv4.ip_local_port_range", "32768 60999"));
    }

    @Test
    void writesOnlyChangesThatSetAValue() {
        List<SysctlChange> changes = List.of(
                new SysctlChange("net/ipv4/ip_forward", Optional.of("0"), Optional.of("1")),
                new SysctlChange("net.ipv4.conf.all.rp_filter", Optional.of("1"), Optional.empty()));

        assertThat(SysctlCommands.write(changes)).contains(Command.of("sysctl", "-q", "-w", "net.ipv4.ip_forward=1"));
        assertThat(SysctlCommands.write(changes.subList(1, 2))).isEmpty();
    }
}
