package io.periscope.lab.ovn;

import java.nio.file.Path;

/**
 * One Open vSwitch or OVN daemon a lab cluster started: which program, for whom (a cluster's control
 * plane or a node), in which namespace, and the files that find it again: its pid file (how it is
 * stopped, even by another JVM) and its log (what an error points to).
 */
public record OvnDaemon(String program, String owner, String namespace, Path pidFile, Path logFile) {

    @Override
    public String toString() {
        return program + " of " + owner + " (namespace " + namespace + ", log " + logFile + ")";
    }
}
