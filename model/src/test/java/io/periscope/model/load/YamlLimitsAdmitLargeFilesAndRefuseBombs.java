package io.periscope.model.load;

import io.periscope.model.topology.ClusterSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * SnakeYAML's defaults (50 aliases, nesting 50, 3 MB) refused real files written as docs/topology.md
 * recommends; the raised limits admit them while a document whose aliases multiply is still refused,
 * naming the limit. The timeout bounds a bomb that got through, it is not a timing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class YamlLimitsAdmitLargeFilesAndRefuseBombs {

    @Test
    void aFiveThousandNodeFileWrittenWithMergeKeysLoads() throws TopologyException {
        int nodes = 5_000;
        StringBuilder text = new StringBuilder("""
                name: big
                clusters:
                  - name: east
                    podCIDRs: [10.0.0.0/8]
                    serviceCIDRs: [100.64.0.0/16]
                    nodes:
                      - &gateway {name: gw, ip: 172.16.0.1, cniIP: 10.0.0.1, gateway: true}
                      - &worker {name: w0, ip: 172.16.0.2, cniIP: 10.0.0.2}
                """);
        for (int i = 1; i < nodes - 1; i++) {
            int host = i + 2;
            text.append("      - {<<: *worker, name: w").append(i)
                    .append(", ip: 172.16.").append(host / 256).append('.').append(host % 256)
                    .append(", cniIP: 10.0.").append(host / 256).append('.').append(host % 256).append("}\n");
        }
        // A YAML text this long also passes SnakeYAML's old 3 MB code point limit only if it is raised.
        text.append("# ").append("padding ".repeat(500_000)).append('\n');

        ClusterSet set = TopologyLoader.parse(text.toString(), "big.yaml");

        assertThat(set.clusters().getFirst().nodes()).hasSize(nodes);
    }

    @Test
    void aBillionLaughsDocumentIsRefusedNamingTheExpansionLimit() {
        TopologyError error = onlyError(billionLaughs());

        assertThat(error.problem()).contains("expand to more than " + TopologyFileLimits.MAX_EXPANDED_NODES);
        assertThat(error.fix()).contains("Limits");
    }

    @Test
    void aMergeKeyBombIsRefusedBeforeTheMergesAreFlattened() {
        StringBuilder text = new StringBuilder("m0: &m0 {k: v}\n");
        for (int level = 1; level <= 12; level++) {
            text.append('m').append(level).append(": &m").append(level).append(" {<<: [");
            for (int i = 0; i < 10; i++) {
                text.append(i == 0 ? "" : ", ").append("*m").append(level - 1);
            }
            text.append("]}\n");
        }

        assertThat(onlyError(text.toString()).problem()).contains("expand to more than");
    }

    @Test
    void anAnchorUsedInsideItselfIsRefusedAtItsLine() {
        TopologyError error = onlyError("name: r\nclusters: &c [*c]\n");

        assertThat(error.line()).isEqualTo(2);
        assertThat(error.problem()).contains("&c").contains("inside itself");
        assertThat(error.fix()).contains("*c");
    }

    @Test
    void anAnchorReachingItselfThroughAnotherIsRefused() {
        TopologyError error = onlyError("name: r\na: &a {b: &b [{c: *a}]}\nclusters: [*b]\n");

        assertThat(error.line()).isEqualTo(2);
        assertThat(error.problem()).contains("inside itself");
    }

    @Test
    void aBillionLaughsErrorNamesTheLineOfTheAnchorThatPassesTheLimit() {
        // a6 expands to 10^7 values, the first anchor over 5,000,000; it is written on line 7.
        assertThat(onlyError(billionLaughs()).line()).isEqualTo(7);
    }

    @Test
    void aLongChainOfNestedAliasesIsCountedWithoutOverflowingTheStack() {
        // Each anchor nests the previous one 190 levels deep: 150 anchors reach 28,500 levels once expanded,
        // far past what a recursive walk of the nodes survives, in about 2,200,000 values, within the limit.
        StringBuilder text = new StringBuilder("l0: &l0 [x]\n");
        int depth = 190;
        for (int level = 1; level <= 150; level++) {
            text.append('l').append(level).append(": &l").append(level).append(' ')
                    .append("[".repeat(depth)).append("*l").append(level - 1).append("]".repeat(depth)).append('\n');
        }

        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.parse(text.toString(), "deep.yaml"));

        assertThat(failure).as("a file without a name and clusters is refused, not a crash").isNotNull();
        assertThat(failure.report()).contains("clusters");
    }

    @Test
    void nestingBeyondTheLimitIsRefusedNamingTheLimit() {
        int depth = TopologyFileLimits.MAX_NESTING_DEPTH + 10;
        String text = "name: " + "[".repeat(depth) + "]".repeat(depth) + "\n";

        assertThat(onlyError(text).problem()).contains("deeper than " + TopologyFileLimits.MAX_NESTING_DEPTH);
    }

    @Test
    void tooManyAliasesAreRefusedNamingTheLimit() {
        StringBuilder text = new StringBuilder("a: &a [x]\nb: [");
        for (int i = 0; i <= TopologyFileLimits.MAX_ALIASES; i++) {
            text.append(i == 0 ? "" : ",").append("*a");
        }
        text.append("]\n");

        assertThat(onlyError(text.toString()).problem()).contains("more than " + TopologyFileLimits.MAX_ALIASES + " aliases");
    }

    /** Ten levels of anchors, each a list of ten aliases of the one before: 10^10 values once expanded. */
    private static String billionLaughs() {
        StringBuilder text = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int level = 1; level <= 9; level++) {
            text.append('a').append(level).append(": &a").append(level).append(" [");
            for (int i = 0; i < 10; i++) {
                text.append(i == 0 ? "" : ", ").append("*a").append(level - 1);
            }
            text.append("]\n");
        }
        return text.toString();
    }

    private static TopologyError onlyError(String text) {
        TopologyException failure = catchThrowableOfType(TopologyException.class, () -> TopologyLoader.parse(text, "bomb.yaml"));
        assertThat(failure).isNotNull();
        assertThat(failure.errors()).as(failure.report()).hasSize(1);
        assertThat(failure.errors().getFirst().file()).isEqualTo("bomb.yaml");
        return failure.errors().getFirst();
    }
}
