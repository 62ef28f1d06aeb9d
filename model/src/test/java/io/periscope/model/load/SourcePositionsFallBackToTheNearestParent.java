package io.periscope.model.load;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SourcePositionsFallBackToTheNearestParent {

    private final SourcePositions positions = new SourcePositions(
            Map.of("clusters", new SourcePosition(3, 1), "clusters[1]", new SourcePosition(9, 5),
                    "clusters[1].pods[0].ip", new SourcePosition(12, 40)),
            Map.of("clusters[1].pods", List.of(0, 2)));

    @Test
    void aRecordedPathGivesItsOwnPosition() {
        assertThat(positions.position("clusters[1].pods[0].ip")).isEqualTo(new SourcePosition(12, 40));
    }

    @Test
    void anUnrecordedPathGivesItsNearestRecordedParent() {
        assertThat(positions.position("clusters[1].pods[2].node")).isEqualTo(new SourcePosition(9, 5));
        assertThat(positions.position("clusters[4].name")).isEqualTo(new SourcePosition(3, 1));
    }

    @Test
    void aPathWithNoRecordedParentIsUnknown() {
        assertThat(positions.position("flows[0].to")).isEqualTo(SourcePosition.UNKNOWN);
        assertThat(SourcePositions.NONE.position("clusters[0]").known()).isFalse();
    }

    @Test
    void containsTellsWrittenFieldsFromDefaultedOnes() {
        assertThat(positions.contains("clusters[1].pods[0].ip")).isTrue();
        assertThat(positions.contains("clusters[1].pods[0].node")).isFalse();
    }

    @Test
    void elementsOfAListThatLostEntriesAreNamedByTheirFileIndex() {
        assertThat(positions.element("clusters[1].pods", 1)).isEqualTo("clusters[1].pods[2]");
        assertThat(positions.element("clusters", 1)).isEqualTo("clusters[1]");
    }

    @Test
    void parentStripsOneStepAtATime() {
        assertThat(SourcePositions.parent("a.b[2].c")).isEqualTo("a.b[2]");
        assertThat(SourcePositions.parent("a.b[2]")).isEqualTo("a.b");
        assertThat(SourcePositions.parent("a")).isEmpty();
    }
}
