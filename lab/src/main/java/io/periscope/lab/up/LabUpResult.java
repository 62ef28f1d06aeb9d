package io.periscope.lab.up;

import io.periscope.lab.layout.LabLayout;

/** A lab that is up: what it is made of and how long building it took. */
public record LabUpResult(LabLayout layout, long millis) {
}
