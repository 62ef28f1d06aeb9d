package io.periscope.lab.capture;

/** Which way a frame crossed the interface it was captured on. */
public enum Direction {
    ARRIVING, LEAVING
}
