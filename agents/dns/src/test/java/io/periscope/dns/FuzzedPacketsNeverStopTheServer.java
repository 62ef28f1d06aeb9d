package io.periscope.dns;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Optional;
import java.util.Random;

import static io.periscope.dns.WireClient.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * 100,000 random and malformed datagrams over loopback, seeded so a failure can be replayed. Every
 * reply must be a well-formed response; after every 1,000 packets a valid query must still get its
 * right answer. The count bounds the test, not a clock.
 */
class FuzzedPacketsNeverStopTheServer {

    private static final int PACKETS = 100_000;
    private static final int PROBE_EVERY = 1_000;
    private static final long SEED = 0x5eed_d15cL;

    @Test
    void malformedPacketsGetFormerrOrNothingAndValidQueriesKeepTheirAnswers() throws Exception {
        try (ServedTopology served = ServedTopology.started(); DatagramChannel fuzzer = DatagramChannel.open()) {
            fuzzer.bind(new InetSocketAddress("127.0.0.1", 0));
            fuzzer.configureBlocking(false);
            InetSocketAddress server = served.server.address();
            Random random = new Random(SEED);
            byte[] valid = query(1, "web.default.svc.clusterset.local", WireClient.A, Optional.of(1232));
            ByteBuffer reply = ByteBuffer.allocate(65535);
            int replies = 0;
            int probes = 0;
            for (int i = 1; i <= PACKETS; i++) {
                byte[] packet = malformed(random, valid);
                fuzzer.send(ByteBuffer.wrap(packet), server);
                replies += drain(fuzzer, reply);
                if (i % PROBE_EVERY == 0) {
                    assertThat(answeredAfterRetries(served.client, valid)).as("valid query after %d fuzzed packets", i).isTrue();
                    probes++;
                }
            }
            Thread.sleep(200);
            replies += drain(fuzzer, reply);
            DnsServer.Counters counters = served.server.counters();
            System.out.printf("fuzz: %d packets sent, %d replies read; server: %d decoded and answered, %d FORMERR before decoding,"
                    + " %d dropped%n", PACKETS, replies, counters.answered().sum(), counters.formatErrors().sum(), counters.dropped().sum());
            assertThat(probes).isEqualTo(PACKETS / PROBE_EVERY);
            assertThat(served.server.counters().formatErrors().sum()).as("some packets were malformed queries").isPositive();
            assertThat(replies).as("FORMERR and other replies came back").isPositive();
            assertThat(served.client.tcp(valid).data(WireClient.A)).containsExactly("100.1.0.10");
        }
    }

    /** Up to three tries: under the flood the kernel may drop a datagram, which is not the server stalling. */
    private static boolean answeredAfterRetries(WireClient client, byte[] valid) throws Exception {
        for (int attempt = 0; attempt < 3; attempt++) {
            Optional<byte[]> raw = client.udpRaw(valid);
            if (raw.isPresent()) {
                WireClient.Response r = WireClient.parse(raw.get());
                return r.rcode() == 0 && r.data(WireClient.A).equals(java.util.List.of("100.1.0.10"));
            }
        }
        return false;
    }

    private static int drain(DatagramChannel channel, ByteBuffer buffer) throws Exception {
        int count = 0;
        while (true) {
            buffer.clear();
            if (channel.receive(buffer) == null) {
                return count;
            }
            buffer.flip();
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            WireClient.Response r = WireClient.parse(bytes); // throws on anything that is not a well-formed response
            assertThat(r.rcode()).isIn(0, 1, 3, 4, 5);
            count++;
        }
    }

    private static byte[] malformed(Random random, byte[] valid) {
        return switch (random.nextInt(8)) {
            case 0 -> bytes(random, random.nextInt(600));
            case 1 -> {
                byte[] p = valid.clone();
                for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                    p[random.nextInt(p.length)] = (byte) random.nextInt(256);
                }
                yield p;
            }
            case 2 -> java.util.Arrays.copyOf(valid, random.nextInt(valid.length));
            case 3 -> {
                // A chain of compression pointers that ends in a loop.
                ByteBuffer b = ByteBuffer.allocate(12 + 2 * 8 + 4).put(valid, 0, 12);
                for (int hop = 0; hop < 8; hop++) {
                    int target = 12 + 2 * random.nextInt(8);
                    b.put((byte) (0xc0 | target >> 8)).put((byte) target);
                }
                yield b.putInt(0x00010001).array();
            }
            case 4 -> {
                // Labels whose lengths run past the packet, or use the reserved 01 and 10 label types.
                byte[] p = valid.clone();
                p[12 + random.nextInt(4)] = (byte) (random.nextBoolean() ? 63 + random.nextInt(2) : 0x40 | random.nextInt(0x80));
                yield p;
            }
            case 5 -> {
                // Oversize: well past any DNS message over UDP, now and then the largest datagram there is.
                byte[] p = bytes(random, random.nextInt(1000) == 0 ? 65507 : 1500 + random.nextInt(6000));
                System.arraycopy(valid, 0, p, 0, 12);
                yield p;
            }
            case 6 -> {
                // Section counts far beyond what the packet holds.
                byte[] p = valid.clone();
                for (int field = 4; field < 12; field += 2) {
                    p[field] = (byte) random.nextInt(256);
                    p[field + 1] = (byte) random.nextInt(256);
                }
                yield p;
            }
            default -> {
                byte[] p = bytes(random, 12 + random.nextInt(64));
                p[2] &= 0x7f; // claims to be a query
                yield p;
            }
        };
    }

    private static byte[] bytes(Random random, int length) {
        byte[] p = new byte[length];
        random.nextBytes(p);
        return p;
    }
}
