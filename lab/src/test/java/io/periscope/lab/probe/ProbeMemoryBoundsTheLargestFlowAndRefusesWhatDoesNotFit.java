package io.periscope.lab.probe;

import io.periscope.lab.machine.MachineCapacity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe's memory bound is the heap holding the plan plus the largest flow's captures (ring and
 * thread each), echo sockets and a round's allowance; flows are probed one after the other, so they
 * do not add up. What the probe has not taken yet is compared with 80% of MemAvailable.
 */
class ProbeMemoryBoundsTheLargestFlowAndRefusesWhatDoesNotFit {

    private static final long MIB = 1024;

    private static MachineCapacity available(long kib) {
        return new MachineCapacity(OptionalLong.of(kib), OptionalLong.empty(), 0, OptionalLong.empty(), 0);
    }

    @Test
    void theLargestFlowDecidesAndTheFormulaIsRingPlusThreadPerCapture() {
        ProbeMemory.FlowFootprint small = new ProbeMemory.FlowFootprint("pod-to-pod", 40, 22, 22);
        ProbeMemory.FlowFootprint large = new ProbeMemory.FlowFootprint("pod-to-svc", 468, 220, 220);

        ProbeMemory memory = ProbeMemory.of(1200 * MIB, List.of(small, large));

        assertThat(memory.largest()).contains(large);
        // 468 x (256 + 128) KiB + 220 x 128 KiB + 64 MiB
        assertThat(large.kib()).isEqualTo(468 * 384 + 220 * 128 + 64 * MIB);
        assertThat(memory.boundKib()).isEqualTo(1200 * MIB + 468 * 384 + 220 * 128 + 64 * MIB);
        assertThat(memory.describe()).startsWith("memory bound 1467.0 MiB: heap committed (it holds the plan) 1200.0 MiB + the largest flow, pod-to-svc,"
                + " 468 captures x (256 KiB ring + 128 KiB thread) + 220 echo sockets x 128 KiB + 64.0 MiB for a round's frames = 267.0 MiB");
    }

    @Test
    void whatTheProbeHasNotTakenYetMustFitIn80PercentOfWhatIsAvailable() {
        ProbeMemory memory = ProbeMemory.of(1200 * MIB, List.of(new ProbeMemory.FlowFootprint("pod-to-svc", 468, 220, 220)));

        assertThat(memory.refusal(available(334 * MIB))).as("267 MiB fit in 80% of 334 MiB").isEmpty();
        assertThat(memory.refusal(available(300 * MIB))).hasValueSatisfying(reason -> assertThat(reason)
                .contains("the probe would hold up to 1467.0 MiB")
                .contains("the 267.0 MiB beyond the heap it holds now exceed 80% of the 300.0 MiB available (MemAvailable in /proc/meminfo), 240.0 MiB")
                .contains("468 captures x (256 KiB ring + 128 KiB thread)")
                .contains("--flow NAME"));
    }

    @Test
    void noFlowThatSendsCostsOnlyTheHeapAndAKernelThatSaysNothingRefusesNothing() {
        ProbeMemory none = ProbeMemory.of(300 * MIB, List.of());

        assertThat(none.boundKib()).isEqualTo(300 * MIB);
        assertThat(none.refusal(available(1))).isEmpty();
        ProbeMemory huge = ProbeMemory.of(MIB, List.of(new ProbeMemory.FlowFootprint("f", 1_000_000, 1, 1)));
        assertThat(huge.refusal(new MachineCapacity(OptionalLong.empty(), OptionalLong.empty(), 0, OptionalLong.empty(), 0))).isEmpty();
    }
}
