package io.periscope.features.steps;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TextPatternTreatsEllipsisAsAnyText {

    private static final String RULE = "-s 10.0.0.0/16 -m mark --mark 0xc0000/0xc0000 -j SNAT --to-source 242.254.1.1-242.254.1.8";

    @Test
    void fragmentsMustAppearInOrder() {
        assertThat(TextPattern.parse("-s 10.0.0.0/16 ... --to-source 242.254.1.1-242.254.1.8").matchesWhole(RULE)).isTrue();
        assertThat(TextPattern.parse("--to-source ... -s 10.0.0.0/16").foundIn(RULE)).isFalse();
    }

    @Test
    void withoutEllipsisTheWholeTextMustMatch() {
        assertThat(TextPattern.parse("-j SNAT").foundIn(RULE)).isTrue();
        assertThat(TextPattern.parse("-j SNAT").matchesWhole(RULE)).isFalse();
        assertThat(TextPattern.parse(RULE).matchesWhole(RULE)).isTrue();
    }

    @Test
    void aTrailingEllipsisLeavesTheEndOpen() {
        assertThat(TextPattern.parse("-j KUBE-SVC-...").matchesWhole("-p tcp -j KUBE-SVC-2CMXP7HKUVJN7L6M")).isFalse();
        assertThat(TextPattern.parse("... -j KUBE-SVC-...").matchesWhole("-p tcp -j KUBE-SVC-2CMXP7HKUVJN7L6M")).isTrue();
    }
}
