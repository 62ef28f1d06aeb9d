package io.periscope.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code periscope dns NAME} with a name no resolver could be asked is the typist's mistake: exit 2
 * naming the rule broken, not an NXDOMAIN that reads as if the service were missing.
 */
class DnsRefusesAMalformedNameNamingTheRuleItBreaks {

    private static final String EXAMPLE = "../examples/globalnet-egress.yaml";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "LONG_LABEL.default.svc.clusterset.local | label 1 is 64 octets long, more than the 63 a label may have",
            "LONG_NAME                               | octets long, more than the 253 a name may have",
            "nginx..svc.clusterset.local             | label 2 is empty",
            "'nginx web.default.svc.clusterset.local'| label 1 holds a space",
            "ngïnx.default.svc.clusterset.local      | label 1 holds the non-ASCII character 'ï' (U+00EF)"})
    void theNameIsRefusedWithExitTwoAndTheRule(String name, String rule) {
        String asked = name.replace("LONG_LABEL", "a".repeat(64))
                .replace("LONG_NAME", String.join(".", java.util.Collections.nCopies(5, "b".repeat(50))) + ".svc.clusterset.local");
        PeriscopeRun run = PeriscopeRun.of("dns", EXAMPLE, asked);

        assertThat(run.status()).isEqualTo(ExitStatus.BAD_INPUT);
        assertThat(run.err()).startsWith("periscope dns: '" + asked + "' is not a DNS name: ").contains(rule)
                .doesNotContain("Exception", "\tat ");
        assertThat(run.out()).isEmpty();
    }
}
