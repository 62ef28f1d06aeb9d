package io.periscope.lab.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** An iperf3 client's -J report, as captured on this machine, read stream by stream; its failures read as failures. */
class Iperf3ResultReadsEachStreamByItsSourcePort {

    @Test
    void everyStreamIsFoundByTheSourcePortItWasBoundTo() {
        Iperf3Result result = Iperf3Result.parse(BenchSamples.read("iperf3-client-8-streams.json"), "");

        assertThat(result.error()).isEmpty();
        assertThat(result.streams()).extracting(Iperf3Result.Stream::sourcePort)
                .containsExactlyInAnyOrder(21000, 21001, 21002, 21003, 21004, 21005, 21006, 21007);
        Iperf3Result.Stream first = result.stream(21000).orElseThrow();
        assertThat(first.receivedBytes()).isEqualTo(391_380_992L);
        assertThat(first.receivedBitsPerSecond()).isCloseTo(1_042_338_029.28, within(0.01));
        assertThat(first.sentBitsPerSecond()).isCloseTo(1_042_378_282.64, within(0.01));
        assertThat(first.retransmits()).isEqualTo(14);
        assertThat(first.meanRttMicros()).isEqualTo(84);
        assertThat(result.stream(21004).orElseThrow().retransmits()).isEqualTo(185);
        assertThat(result.seconds()).isCloseTo(3.00387, within(1e-6));
        // The streams add up to iperf3's own sum.
        assertThat(result.streams().stream().mapToLong(Iperf3Result.Stream::receivedBytes).sum()).isEqualTo(3_135_373_312L);
        assertThat(result.streams().stream().mapToLong(Iperf3Result.Stream::retransmits).sum()).isEqualTo(200);
    }

    @Test
    void aClientThatFoundNoServerIsAFailureThoughItExitedZero() {
        Iperf3Result result = Iperf3Result.parse(BenchSamples.read("iperf3-client-refused.json"), "");

        assertThat(result.error()).contains("unable to connect to server: Connection refused");
        assertThat(result.streams()).isEmpty();
        assertThat(result.stream(21000)).isEmpty();
    }

    @Test
    void noJsonAtAllIsAFailureNamedByWhatItPrintedOnStandardError() {
        assertThat(Iperf3Result.parse("", "iperf3: error - unable to start listener for connections: Address already in use\n").error())
                .contains("iperf3: error - unable to start listener for connections: Address already in use");
        assertThat(Iperf3Result.parse("not json", "").error()).contains("iperf3 printed no JSON");
    }
}
