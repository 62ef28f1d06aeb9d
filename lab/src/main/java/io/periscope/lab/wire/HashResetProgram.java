package io.periscope.lab.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A three-instruction eBPF program for tc, as an ELF object file written without a compiler: it
 * forgets a packet's flow hash ({@code bpf_set_hash_invalid}) and lets the packet pass.
 *
 * <p>Why the lab needs it: with L4 multipath hashing, Linux reuses a hash already stored with a
 * packet instead of hashing the 5-tuple again, and the hash a TCP socket stores with its packets
 * travels with them through veths and VXLAN tunnels. Every namespace of the lab would then choose
 * its nexthop from the sending socket's hash: a worker and a gateway with two nexthops each pick
 * the same position, so of two local times two remote gateways only two pairs would ever carry a
 * flow. Between real machines no hash crosses the wire; attached to the ports of the lab's
 * switches, this program makes the lab's wires behave the same, while the nodes' own namespaces
 * stay exactly as planned.
 */
public final class HashResetProgram {

    /** The ELF section holding the program, given to {@code tc filter ... bpf obj FILE sec SECTION}. */
    public static final String SECTION = "tc";

    private static final short EM_BPF = 247;
    private static final short ET_REL = 1;
    private static final int SHT_PROGBITS = 1;
    private static final int SHT_SYMTAB = 2;
    private static final int SHT_STRTAB = 3;
    private static final long SHF_WRITE = 1;
    private static final long SHF_ALLOC = 2;
    private static final long SHF_EXECINSTR = 4;
    private static final int HEADER = 64;
    private static final int SECTION_HEADER = 64;
    private static final int SYMBOL = 24;

    /** {@code call bpf_set_hash_invalid} (helper 41, the context in r1); {@code r0 = TC_ACT_OK}; {@code exit}. */
    private static final byte[] INSTRUCTIONS = {
            (byte) 0x85, 0, 0, 0, 41, 0, 0, 0,
            (byte) 0xb7, 0, 0, 0, 0, 0, 0, 0,
            (byte) 0x95, 0, 0, 0, 0, 0, 0, 0,
    };
    /** The kernel lets only GPL-compatible programs call this helper. */
    private static final byte[] LICENSE = "GPL\0".getBytes(StandardCharsets.US_ASCII);

    private HashResetProgram() {
    }

    /** The object file's bytes. */
    public static byte[] elf() {
        Strings strings = new Strings();
        int nameStrtab = strings.add(".strtab");
        int nameProgram = strings.add(SECTION);
        int nameLicense = strings.add("license");
        int nameSymtab = strings.add(".symtab");
        int nameFunction = strings.add("reset_hash");
        int nameLicenseSymbol = strings.add("_license");
        byte[] strtab = strings.bytes();

        int programOffset = HEADER;
        int licenseOffset = programOffset + INSTRUCTIONS.length;
        int symtabOffset = align(licenseOffset + LICENSE.length, 8);
        int symbols = 4;
        int strtabOffset = symtabOffset + symbols * SYMBOL;
        int sectionsOffset = align(strtabOffset + strtab.length, 8);
        int sections = 5;

        ByteBuffer elf = ByteBuffer.allocate(sectionsOffset + sections * SECTION_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        elf.put(new byte[]{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        elf.putShort(ET_REL).putShort(EM_BPF).putInt(1).putLong(0).putLong(0).putLong(sectionsOffset).putInt(0)
                .putShort((short) HEADER).putShort((short) 0).putShort((short) 0).putShort((short) SECTION_HEADER)
                .putShort((short) sections).putShort((short) 1);

        elf.position(programOffset).put(INSTRUCTIONS);
        elf.position(licenseOffset).put(LICENSE);

        elf.position(symtabOffset);
        symbol(elf, 0, 0, 0, 0);
        symbol(elf, 0, 0x03, 2, 0);                       // the program section (local, STT_SECTION)
        symbol(elf, nameFunction, 0x12, 2, INSTRUCTIONS.length); // global function: the program itself
        symbol(elf, nameLicenseSymbol, 0x11, 3, LICENSE.length); // global object
        elf.position(strtabOffset).put(strtab);

        elf.position(sectionsOffset);
        section(elf, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        section(elf, nameStrtab, SHT_STRTAB, 0, strtabOffset, strtab.length, 0, 0, 1, 0);
        section(elf, nameProgram, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, programOffset, INSTRUCTIONS.length, 0, 0, 8, 0);
        section(elf, nameLicense, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, licenseOffset, LICENSE.length, 0, 0, 1, 0);
        // sh_info of a symbol table: the index of its first global symbol.
        section(elf, nameSymtab, SHT_SYMTAB, 0, symtabOffset, symbols * SYMBOL, 1, 2, 8, SYMBOL);
        return elf.array();
    }

    /** Writes the object file, for {@code tc} to load. */
    public static Path writeTo(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, elf());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void symbol(ByteBuffer elf, int name, int info, int section, long size) {
        elf.putInt(name).put((byte) info).put((byte) 0).putShort((short) section).putLong(0).putLong(size);
    }

    private static void section(ByteBuffer elf, int name, int type, long flags, long offset, long size, int link, int info,
                                long alignment, long entrySize) {
        elf.putInt(name).putInt(type).putLong(flags).putLong(0).putLong(offset).putLong(size).putInt(link).putInt(info)
                .putLong(alignment).putLong(entrySize);
    }

    private static int align(int value, int alignment) {
        return (value + alignment - 1) / alignment * alignment;
    }

    /** An ELF string table: names joined by NUL bytes, referred to by offset. */
    private static final class Strings {
        private final StringBuilder text = new StringBuilder("\0");

        int add(String name) {
            int offset = text.length();
            text.append(name).append('\0');
            return offset;
        }

        byte[] bytes() {
            return text.toString().getBytes(StandardCharsets.US_ASCII);
        }
    }
}
