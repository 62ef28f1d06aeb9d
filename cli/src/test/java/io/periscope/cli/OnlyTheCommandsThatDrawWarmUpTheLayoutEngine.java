package io.periscope.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code trace --html}, {@code trace --dot} and {@code serve} lay out a picture, so they load the layout
 * engine on a thread of their own from the start; no other command line starts that thread (it would
 * only take CPU from them).
 */
class OnlyTheCommandsThatDrawWarmUpTheLayoutEngine {

    @Test
    void traceWithAPictureAndServeDrawTheOthersDoNot() {
        assertThat(PeriscopeCommand.drawsAPicture(List.of("trace", "t.yaml", "--html", "out.html"))).isTrue();
        assertThat(PeriscopeCommand.drawsAPicture(List.of("trace", "t.yaml", "--dot=-"))).isTrue();
        assertThat(PeriscopeCommand.drawsAPicture(List.of("--debug", "serve", "t.yaml"))).isTrue();

        assertThat(PeriscopeCommand.drawsAPicture(List.of("trace", "t.yaml"))).isFalse();
        assertThat(PeriscopeCommand.drawsAPicture(List.of("trace", "t.yaml", "--json"))).isFalse();
        assertThat(PeriscopeCommand.drawsAPicture(List.of("check", "t.yaml", "--html"))).as("check has no picture").isFalse();
        assertThat(PeriscopeCommand.drawsAPicture(List.of("--version"))).isFalse();
    }
}
