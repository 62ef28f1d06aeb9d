package io.periscope.cli;

import io.periscope.lab.state.LabStateFile;
import io.periscope.model.load.TopologyException;
import io.periscope.visualizer.server.VisualizerServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.util.concurrent.Callable;

/**
 * {@code periscope serve}: the visualizer's web page for one topology file, redrawn whenever the file
 * is saved. It runs until interrupted. A file with mistakes is served too: the page shows them until
 * a save fixes them, which is what someone editing the file wants.
 */
@Command(name = "serve",
        description = "Serve a web page that draws the file's topology and every packet path, what-if failures, the "
                + "reachability matrix and, when the file's lab is up (and serve runs as root), real packets probed from the page; "
                + "it redraws whenever the file is saved.")
public final class ServeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TopologyInput topology;

    @Option(names = "--port", paramLabel = "N", defaultValue = "0",
            description = "the TCP port (default: a free one, printed on start)")
    private int port;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "the address to listen on (default: ${DEFAULT-VALUE}, this machine only)")
    private String bind;

    @Override
    public Integer call() throws TopologyException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isRegularFile(topology.file())) {
            topology.load(); // says why the file cannot be used, as every command does
        }
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port " + port + ": a port is 0 (any free one) to 65535");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--bind " + bind + ": not an address of this machine (try 127.0.0.1)");
        }
        try {
            topology.load();
        } catch (TopologyException e) {
            err.print(e.report());
            err.println("serving anyway: the page shows these errors until a save fixes them");
        }
        VisualizerServer server;
        try {
            server = VisualizerServer.start(topology.file(), address, port, new NamespaceLab(new LabStateFile()));
        } catch (Exception e) {
            if (e instanceof BindException || e instanceof java.net.SocketException) {
                throw new ParameterException(spec.commandLine(), "--bind " + bind + " --port " + port + ": cannot listen there ("
                        + e.getMessage() + "); choose another port, or leave --port out for a free one");
            }
            throw e;
        }
        if (!address.isLoopbackAddress()) {
            err.println("warning: listening on " + bind + ": anyone who can reach this address can read the topology and its traces");
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "periscope-serve-stop"));
        out.println("serving " + topology.file() + " at " + server.url() + " (redraws on every save; Ctrl-C stops)");
        out.flush();
        server.awaitClose();
        return ExitStatus.OK;
    }
}
