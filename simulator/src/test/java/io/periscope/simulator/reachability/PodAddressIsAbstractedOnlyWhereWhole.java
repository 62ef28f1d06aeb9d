package io.periscope.simulator.reachability;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** A pod's plan text with its own address written SELF, so that alike pods compare equal (PodTreatment). */
class PodAddressIsAbstractedOnlyWhereWhole {

    @Test
    void theAddressItselfBecomesSelfButNotAnAddressThatContainsIt() {
        String text = "eth0 [10.0.0.1/24] 1450\n-A X -s 10.0.0.1/32 -j A\n-A X -d 110.0.0.1 -j B\n"
                + "-A X -d 10.0.0.12 -j C\n-A X -d 1.10.0.0.1 -j D\nsrc 10.0.0.1";

        assertThat(PodTreatment.withSelf(text, "10.0.0.1")).isEqualTo("eth0 [SELF/24] 1450\n-A X -s SELF/32 -j A\n"
                + "-A X -d 110.0.0.1 -j B\n-A X -d 10.0.0.12 -j C\n-A X -d 1.10.0.0.1 -j D\nsrc SELF");
    }

    @Test
    void textWithoutTheAddressIsLeftAsItIs() {
        assertThat(PodTreatment.withSelf("eth0 [10.0.0.2/24]", "10.0.0.1")).isEqualTo("eth0 [10.0.0.2/24]");
        assertThat(PodTreatment.withSelf("", "10.0.0.1")).isEmpty();
    }

    /** The scan replaced a regular expression; on random text of digits, dots and spaces both agree. */
    @Test
    void agreesWithTheRegularExpressionItReplaced() {
        Random random = new Random(31);
        String alphabet = "0123.4 /1";
        for (int round = 0; round < 20_000; round++) {
            String address = (random.nextInt(3)) + "." + random.nextInt(2) + "." + random.nextInt(12);
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(40);
            while (text.length() < length) {
                if (random.nextInt(4) == 0) {
                    text.append(address);
                } else {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String expected = Pattern.compile("(?<![0-9.])" + Pattern.quote(address) + "(?![0-9])").matcher(text).replaceAll("SELF");

            assertThat(PodTreatment.withSelf(text, address)).as("%s in %s", address, text).isEqualTo(expected);
        }
    }
}
