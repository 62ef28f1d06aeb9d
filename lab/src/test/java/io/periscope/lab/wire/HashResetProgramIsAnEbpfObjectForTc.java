package io.periscope.lab.wire;

import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.Examples;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class HashResetProgramIsAnEbpfObjectForTc {

    private final ByteBuffer elf = ByteBuffer.wrap(HashResetProgram.elf()).order(ByteOrder.LITTLE_ENDIAN);

    @Test
    void itIsARelocatable64BitLittleEndianElfForTheBpfMachine() {
        assertThat(new String(HashResetProgram.elf(), 1, 3, StandardCharsets.US_ASCII)).isEqualTo("ELF");
        assertThat(elf.get(4)).as("64-bit").isEqualTo((byte) 2);
        assertThat(elf.get(5)).as("little endian").isEqualTo((byte) 1);
        assertThat(elf.getShort(16)).as("relocatable").isEqualTo((short) 1);
        assertThat(elf.getShort(18)).as("EM_BPF").isEqualTo((short) 247);
    }

    @Test
    void theProgramSectionHoldsTheHelperCallAndAnOkVerdict() {
        String names = new String(HashResetProgram.elf(), StandardCharsets.US_ASCII);
        assertThat(names).contains("\0tc\0", "\0license\0", "\0reset_hash\0", "GPL\0");

        int sections = (int) elf.getLong(40);
        int programHeader = sections + 2 * 64;
        int offset = (int) elf.getLong(programHeader + 24);
        int size = (int) elf.getLong(programHeader + 32);
        assertThat(size).isEqualTo(24);
        assertThat(elf.get(offset) & 0xff).as("call").isEqualTo(0x85);
        assertThat(elf.getInt(offset + 4)).as("helper bpf_set_hash_invalid").isEqualTo(41);
        assertThat(elf.get(offset + 8) & 0xff).as("r0 = imm").isEqualTo(0xb7);
        assertThat(elf.getInt(offset + 12)).as("TC_ACT_OK").isZero();
        assertThat(elf.get(offset + 16) & 0xff).as("exit").isEqualTo(0x95);
    }

    @Test
    void everySwitchPortGetsAClsactQdiscAndTheProgramOnIngress() {
        LabLayout layout = LabLayout.of(Examples.plan(Examples.MAG_GLOBALNET));
        var wan = layout.switches().stream().filter(s -> s.segment().equals("wan")).findFirst().orElseThrow();

        assertThat(WireBatches.hashReset(wan, Path.of("/tmp/p.o")).lines()).hasSize(8)
                .contains("qdisc add dev gw-1 clsact", "filter add dev gw-1 ingress bpf direct-action obj /tmp/p.o sec tc");
    }
}
