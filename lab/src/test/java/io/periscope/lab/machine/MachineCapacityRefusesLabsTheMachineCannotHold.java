package io.periscope.lab.machine;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class MachineCapacityRefusesLabsTheMachineCannotHold {

    private static final long GIB = 1024 * 1024;

    @Test
    void aLabThatFitsEveryLimitIsNotRefused() {
        MachineCapacity machine = new MachineCapacity(OptionalLong.of(8 * GIB), OptionalLong.of(10_000), 20, OptionalLong.of(100_000), 40);

        assertThat(machine.refusal(1_000)).isEmpty();
    }

    @Test
    void tooLittleMemoryIsRefusedWithTheEstimateAndWhatIsAvailable() {
        MachineCapacity machine = new MachineCapacity(OptionalLong.of(2 * GIB), OptionalLong.of(100_000), 0, OptionalLong.of(100_000), 40);

        assertThat(machine.refusal(4_000)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("4000 namespaces need about 4512 MiB")
                .contains("80% of the 2048 MiB available (MemAvailable in /proc/meminfo) is 1638 MiB"));
    }

    @Test
    void theKernelsNamespaceAndMountLimitsAreNamedWithTheirSysctls() {
        MachineCapacity machine = new MachineCapacity(OptionalLong.of(64 * GIB), OptionalLong.of(1_000), 900, OptionalLong.of(5_000), 4_950);

        assertThat(machine.refusal(200)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("200 more than the 900 there are now exceeds the kernel's limit of 1000 (sysctl user.max_net_namespaces)")
                .contains("200 more than the 4950 mounts there are now exceeds the limit of 5000 (sysctl fs.mount-max)")
                .doesNotContain("memory"));
    }

    @Test
    void aKernelThatSaysNothingRefusesNothing() {
        MachineCapacity machine = new MachineCapacity(OptionalLong.empty(), OptionalLong.empty(), 0, OptionalLong.empty(), 0);

        assertThat(machine.refusal(1_000_000)).isEmpty();
    }

    @Test
    void thisMachineIsRead() {
        MachineCapacity here = MachineCapacity.read();

        assertThat(here.memAvailableKib()).as("Linux has MemAvailable").isPresent();
        assertThat(here.mountsNow()).isPositive();
        // /proc reports its files' size as 0; a reader that trusts the size reads one digit
        assertThat(here.maxNetNamespaces().orElse(Long.MAX_VALUE)).isGreaterThan(100);
        assertThat(here.mountMax().orElse(Long.MAX_VALUE)).isGreaterThan(100);
    }
}
