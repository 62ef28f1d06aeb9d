package io.periscope.model.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A gateway at 0.0.0.0, 255.255.255.255 or 224.0.0.5 used to pass check as "delivered" (the trace
 * encapsulated to it) and then fail or deliver nothing in the lab; 172.018.0.2 was read as 172.18.0.2.
 * Every address and CIDR field is refused with its place when no host can have it.
 */
class AddressesNoHostCanHaveAreRefused {

    private static final Path EXAMPLE = Path.of("..", "examples", "mag-globalnet.yaml");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "ip: 172.18.0.6|ip: 0.0.0.0|clusters[0].nodes[0].ip|'this network'",
            "ip: 172.18.0.6|ip: 255.255.255.255|clusters[0].nodes[0].ip|broadcast",
            "ip: 172.18.0.6|ip: 224.0.0.5|clusters[0].nodes[0].ip|multicast",
            "ip: 172.18.0.6|ip: 127.0.0.1|clusters[0].nodes[0].ip|loopback",
            "ip: 172.18.0.6|ip: 169.254.0.6|clusters[0].nodes[0].ip|link-local",
            "ip: 172.18.0.6|ip: 172.018.0.6|clusters[0].nodes[0].ip|leading zero",
            "cniIP: 10.0.0.1|cniIP: 127.0.0.1|clusters[0].nodes[0].cniIP|loopback",
            "ip: 10.0.128.4|ip: 224.0.128.4|clusters[0].pods[0].ip|multicast",
            "podCIDRs: [10.0.0.0/16]|podCIDRs: [010.0.0.0/16]|clusters[0].podCIDRs[0]|leading zero",
            "podCIDRs: [10.0.0.0/16]|podCIDRs: [127.0.0.0/16]|clusters[0].podCIDRs[0]|loopback",
            "serviceCIDRs: [100.0.0.0/16]|serviceCIDRs: [224.0.0.0/16]|clusters[0].serviceCIDRs[0]|multicast",
            "globalCIDR: 242.254.1.0/24|globalCIDR: 0.0.0.0/0|clusters[0].globalCIDR|'this network'",
            "globalCIDR: 242.254.1.0/24|globalCIDR: 169.0.0.0/8|clusters[0].globalCIDR|link-local",
    })
    void theFieldIsNamedWithTheReason(String valid, String invalid, String path, String reason) throws IOException {
        String text = Files.readString(EXAMPLE);
        assertThat(text).contains(valid);
        String broken = text.replaceFirst(java.util.regex.Pattern.quote(valid), java.util.regex.Matcher.quoteReplacement(invalid));
        int line = lineOf(broken, invalid);

        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.parse(broken, "t.yaml"));

        assertThat(failure).as("%s is refused", invalid).isNotNull();
        assertThat(failure.errors()).anySatisfy(error -> {
            assertThat(error.path()).isEqualTo(path);
            assertThat(error.line()).isEqualTo(line);
            assertThat(error.problem()).contains(reason);
            assertThat(error.fix()).isNotEmpty();
        });
    }

    private static int lineOf(String text, String written) {
        return text.substring(0, text.indexOf(written)).split("\n", -1).length;
    }

    /** Seed 000's Global Private Network is 169.254.0.0/16: Globalnet's CIDRs may be link-local, hosts' networks not. */
    @Test
    void globalnetCidrsMayBeLinkLocalAsSeed000Writes() throws IOException, TopologyException {
        String text = Files.readString(EXAMPLE);
        String linkLocal = text.replaceFirst("cidr: 242.254.0.0/16", "cidr: 169.254.0.0/16")
                .replaceFirst("globalCIDR: 242.254.1.0/24", "globalCIDR: 169.254.1.0/24")
                .replaceFirst("globalCIDR: 242.254.2.0/24", "globalCIDR: 169.254.2.0/24");
        assertThat(linkLocal).contains("169.254.1.0/24", "169.254.2.0/24");

        assertThat(TopologyLoader.parse(linkLocal, "t.yaml").clusters()).extracting(c -> c.globalCidr().orElseThrow().toString())
                .contains("169.254.1.0/24", "169.254.2.0/24");
    }
}
