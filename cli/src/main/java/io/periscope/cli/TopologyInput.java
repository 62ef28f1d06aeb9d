package io.periscope.cli;

import io.periscope.model.load.TopologyError;
import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The topology file every command takes as its first argument. Mixed into each command so the
 * argument reads the same everywhere; a file that cannot be used surfaces as a
 * {@link TopologyException}, which {@link ExecutionErrorHandler} reports and turns into exit 2.
 */
public final class TopologyInput {

    @Parameters(index = "0", paramLabel = "FILE", description = "the topology file (YAML)")
    private Path file;

    public Path file() {
        return file;
    }

    public ClusterSet load() throws TopologyException {
        return loadWithWarnings().set();
    }

    /** {@link #load}, with the file's warnings (each with its place in the file). */
    public TopologyLoader.Loaded loadWithWarnings() throws TopologyException {
        // Checked here as well as in the loader: the message can then say where a relative path was
        // looked for, which is what goes wrong when the launcher is called from another directory.
        if (!Files.exists(file)) {
            throw problem("no such file", "check the path; a relative path is taken from " + Path.of("").toAbsolutePath());
        }
        if (Files.isDirectory(file)) {
            throw problem("is a directory, not a topology file", "name a .yaml file, for example examples/mag-globalnet.yaml");
        }
        if (!Files.isReadable(file)) {
            throw problem("cannot be read (permission denied)", "make the file readable by the user running periscope");
        }
        return TopologyLoader.loadWithWarnings(file);
    }

    private TopologyException problem(String problem, String fix) {
        return new TopologyException(List.of(new TopologyError(file.toString(), 0, 0, "", problem, fix)));
    }
}
