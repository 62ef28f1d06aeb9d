package io.periscope.cli;

import io.periscope.lab.netns.NetworkNamespaces;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The acceptance suite of issue 13: every class of bad input a user can hand periscope, through every
 * command that reads a topology file (check, trace, plan, lab up). Each must exit 2 (1 where the file is
 * good but a flow or an allocation fails) with a message that names the file and, when the mistake is in
 * the text, the line; never a stack trace or "internal error". lab up must refuse before it needs root,
 * so it is given only files that cannot be loaded. Time is bounded by a generous timeout (a FIFO or
 * /dev/zero would otherwise hang or fill memory); memory by the test JVM's heap here, and by a child JVM
 * with a small heap in {@link #theLargestInputsStayWithinASmallHeap()}.
 */
class BadInputsAreRefusedByEveryCommand {

    private static final Duration BOUND = Duration.ofSeconds(90);
    private static Path directory;

    /**
     * @param name     what the input is
     * @param file     the path as given on the command line
     * @param place    what the first error line must start with: the file, and the line when the mistake has one
     * @param problem  a phrase the message must contain
     */
    record BadInput(String name, String file, String place, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    @BeforeAll
    static void writeTheInputs() throws IOException {
        directory = Files.createTempDirectory("periscope-bad-inputs");
    }

    @AfterAll
    static void removeTheInputs() throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                path.toFile().setWritable(true);
                Files.deleteIfExists(path);
            }
        }
    }

    static List<BadInput> unloadable() throws IOException, InterruptedException {
        if (directory == null) {
            writeTheInputs();
        }
        List<BadInput> inputs = new ArrayList<>();
        Path missing = directory.resolve("no-such-topology.yaml");
        inputs.add(new BadInput("missing file", missing.toString(), missing.toString(), "no such file"));
        Path folder = Files.createDirectories(directory.resolve("a-directory.yaml"));
        inputs.add(new BadInput("directory", folder.toString(), folder.toString(), "is a directory"));
        inputs.add(new BadInput("device that never ends", "/dev/zero", "/dev/zero", "not a regular file"));
        Path fifo = directory.resolve("fifo.yaml");
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) {
            inputs.add(new BadInput("FIFO", fifo.toString(), fifo.toString(), "not a regular file"));
        }
        Path huge = directory.resolve("huge.yaml");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(3L * 1024 * 1024 * 1024); // sparse: no disk, but 3 GB to read
        }
        inputs.add(new BadInput("3 GB file", huge.toString(), huge.toString(), "16 MiB"));
        byte[] noise = new byte[4096];
        new Random(13).nextBytes(noise);
        noise[0] = (byte) 0xff;
        inputs.add(write("binary", "random.bin", noise, ":1:1: ", "not UTF-8"));
        inputs.add(write("Latin-1 text", "latin1.yaml", "name: caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                ":1:10: ", "not UTF-8"));
        inputs.add(write("control character", "nul.yaml", "name: a\u0000b\n".getBytes(), ":1:\\d+: ", "is not allowed"));
        inputs.add(text("empty file", "empty.yaml", "", ": ", "the file is empty"));
        inputs.add(text("list instead of a mapping", "list.yaml", "- a\n- b\n", ":1:\\d+: ", "mapping"));
        inputs.add(text("unclosed bracket", "unclosed.yaml", "name: x\nclusters: [\n", ":\\d+:\\d+: ", "not valid YAML"));
        inputs.add(text("tab indentation", "tabs.yaml", "name: x\nclusters:\n\t- name: a\n", ":3:\\d+: ", "not valid YAML"));
        inputs.add(text("billion laughs", "laughs.yaml", billionLaughs(), ":\\d+:\\d+: ", "expand to more than"));
        inputs.add(text("merge-key bomb", "merges.yaml", mergeBomb(), ":\\d+:\\d+: ", "expand to more than"));
        inputs.add(text("self-referencing alias", "self-alias.yaml", "name: r\nclusters: &c [*c]\n", ":2:\\d+: ", "used inside itself"));
        // Issue 27: addresses no host can have, which check traced as delivered and lab up failed on.
        inputs.add(text("unspecified gateway", "unspecified.yaml", cluster("east", "0.0.0.0"), ":8:\\d+: ", "cannot be a host's address"));
        inputs.add(text("broadcast gateway", "broadcast.yaml", cluster("east", "255.255.255.255"), ":8:\\d+: ", "broadcast"));
        inputs.add(text("multicast gateway", "multicast.yaml", cluster("east", "224.0.0.5"), ":8:\\d+: ", "multicast"));
        inputs.add(text("loopback gateway", "loopback.yaml", cluster("east", "127.0.0.1"), ":8:\\d+: ", "loopback"));
        inputs.add(text("octet with a leading zero", "octal.yaml", cluster("east", "172.018.0.2"), ":8:\\d+: ", "leading zero"));
        inputs.add(text("deep nesting", "deep.yaml", "name: " + "[".repeat(5000) + "]".repeat(5000) + "\n", ": ", "deeper than"));
        inputs.add(text("unicode file name", "t\u00f8p\u00f8logy \u2713.yaml", "name: x\nclusters: [\n", ":\\d+:\\d+: ", "not valid YAML"));
        inputs.add(text("unicode cluster name", "unicode-cluster.yaml", cluster("caf\u00e9", "172.18.0.6"), ":4:\\d+: ", "not a DNS label"));
        inputs.add(text("unknown field", "typo.yaml", cluster("east", "172.18.0.6").replace("podCIDRs", "podCIDR"), ":5:\\d+: ", "podCIDR"));
        inputs.add(text("global range with no block left", "exhausted.yaml", twoClusters("globalnet: {enabled: true, cidr: 242.0.0.0/30, clusterSize: 4}\n",
                "", "172.18.0.7"), ":10:\\d+: ", "no free block of 4 addresses left (1 block taken)"));
        inputs.add(text("global CIDR of a /31", "slash31.yaml", twoClusters("globalnet: {enabled: true, cidr: 242.0.0.0/8}\n",
                "    globalCIDR: 242.0.0.0/31\n", "172.18.0.7"), ":5:\\d+: ", "outside /8../30"));
        inputs.add(text("global CIDR of a /32", "slash32.yaml", twoClusters("globalnet: {enabled: true, cidr: 242.0.0.0/8}\n",
                "    globalCIDR: 242.0.0.0/32\n", "172.18.0.7"), ":5:\\d+: ", "outside /8../30"));
        inputs.add(text("global CIDR of the whole range", "whole-range.yaml", twoClusters("globalnet: {enabled: true, cidr: 242.0.0.0/8}\n",
                "    globalCIDR: 242.0.0.0/8\n", "172.18.0.7"), ":11:\\d+: ", "no free block"));
        inputs.add(text("worker address of a remote gateway", "collision.yaml", twoClusters("", "", "172.18.0.9"), ":8:\\d+: ",
                "the address gateway 'west/gw' is reached at"));
        // Links (issue 19): the line of the value and the field's path, for each kind of impossible figure.
        inputs.add(text("negative rate", "negative-rate.yaml", twoClusters("", "", "172.18.0.7")
                + "cables:\n  - between: [east, west]\n    rate: -5mbit\n", ":17:\\d+: cables\\[0\\]\\.rate: ", "not a rate a link can have"));
        inputs.add(text("delay in parsecs", "parsecs.yaml", twoClusters("", "", "172.18.0.7")
                + "cables:\n  - between: [east, west]\n    delay: 10 parsecs\n", ":17:\\d+: cables\\[0\\]\\.delay: ", "unit 'parsecs'"));
        inputs.add(text("loss above 100%", "loss.yaml", twoClusters("", "", "172.18.0.7")
                + "cables:\n  - between: [east, west]\n    loss: 120%\n", ":17:\\d+: cables\\[0\\]\\.loss: ", "outside 0%..100%"));
        inputs.add(text("rate on a cable that does not exist", "no-cable.yaml", twoClusters("", "", "172.18.0.7")
                + "cables:\n  - between: [east, north]\n    rate: 10mbit\n", ":16:\\d+: cables\\[0\\]\\.between\\[1\\]: ",
                "names cluster 'north', which the file does not have"));
        inputs.add(text("flow from an unknown pod", "flow.yaml", cluster("east", "172.18.0.6")
                + "flows:\n  - {name: f, from: east/default/ghost, to: 10.1.0.9:80, protocol: tcp}\n", ":10:\\d+: ", "ghost"));
        // A path-like name: relative, through '..', as a script in another directory might pass it.
        Path nested = Files.createDirectories(directory.resolve("sub"));
        Files.writeString(nested.resolve("syntax.yaml"), "name: x\nclusters: [\n");
        String pathLike = directory.resolve("sub/../sub/./syntax.yaml").toString();
        inputs.add(new BadInput("path-like name", pathLike, ":\\d+:\\d+: ", "not valid YAML"));
        return inputs;
    }

    /** Every unloadable input through every command that reads a file; lab up must refuse before it needs root. */
    static Stream<Arguments> commandsAndInputs() throws IOException, InterruptedException {
        List<BadInput> inputs = unloadable();
        return Stream.of(List.of("check"), List.of("trace"), List.of("plan"), List.of("lab", "up"))
                .flatMap(command -> inputs.stream().map(input -> Arguments.of(String.join(" ", command), input)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("commandsAndInputs")
    void everyCommandRefusesIt(String command, BadInput input) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.add(input.file());
        refused(input, args.toArray(String[]::new));
    }

    /**
     * A file of mode 000. Root reads it anyway (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so as root each
     * command runs in a child JVM that setpriv(1) starts without those two capabilities: still root,
     * but the kernel now refuses the read as it would for any user, and the command must say so.
     */
    @Test
    void anUnreadableFileIsRefusedNamingIt() throws Exception {
        Path locked = Files.writeString(directory.resolve("locked.yaml"), "name: x\n");
        Files.setPosixFilePermissions(locked, Set.of());
        BadInput input = new BadInput("unreadable", locked.toString(), locked.toString(), "permission denied");
        for (String command : List.of("check", "trace", "plan")) {
            if (NetworkNamespaces.runningAsRoot()) {
                assertRefused(input, assertTimeoutPreemptively(BOUND, () -> withoutReadOverride(command, locked.toString())));
            } else {
                refused(input, command, locked.toString());
            }
        }
    }

    /** The command in a child JVM, run as root without the capabilities that let root read any file. */
    private static PeriscopeRun withoutReadOverride(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                PeriscopeCommand.class.getName()));
        argv.addAll(List.of(args));
        Process child = new ProcessBuilder(argv).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(child.getInputStream()));
        String err = readAll(child.getErrorStream());
        int status = child.waitFor();
        assertThat(err).as("setpriv (util-linux) dropped the capabilities and started java").doesNotStartWith("setpriv:");
        return new PeriscopeRun(status, out.join(), err);
    }

    private static String readAll(java.io.InputStream stream) {
        try {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aGoodFileWhoseFlowFailsExitsOneFromCheck() throws IOException {
        Path file = Files.writeString(directory.resolve("failing-flow.yaml"), Files.readString(Path.of("..", "examples", "mag-vanilla.yaml"))
                .replace("expect: delivered", "expect: dropped"));

        PeriscopeRun run = assertTimeoutPreemptively(BOUND, () -> PeriscopeRun.of("check", file.toString(), "--no-matrix"));

        assertThat(run.status()).isEqualTo(ExitStatus.EXPECTATION_FAILED);
        assertThat(run.out()).contains("FAIL client-to-nginx");
        noStackTrace(run);
    }

    @Test
    void aGoodFileWhosePoolIsTooSmallExitsOneFromCheck() {
        PeriscopeRun run = assertTimeoutPreemptively(BOUND, () -> PeriscopeRun.of("check", CheckFailsWhenAGlobalnetObjectGetsNoAddresses.POOL_SMALL,
                "--no-matrix"));

        assertThat(run.status()).isEqualTo(ExitStatus.EXPECTATION_FAILED);
        assertThat(run.out()).contains("GlobalEgressIP db/db-egress", "missing");
        noStackTrace(run);
    }

    @Test
    void aFlowToAServiceNobodyExportsIsAnsweredNotRefused() {
        for (String command : List.of("check", "trace")) {
            PeriscopeRun run = assertTimeoutPreemptively(BOUND, () -> PeriscopeRun.of(command,
                    NamesNobodyAnswersTraceAsUnreachableEverywhere.UNANSWERED, command.equals("check") ? "--no-matrix" : "--json"));
            assertThat(run.status()).as(command + ": " + run.err()).isZero();
            noStackTrace(run);
        }
    }

    /**
     * The inputs that would exhaust memory if read or expanded, through check in a JVM with a 96 MB heap:
     * refusing them must not need more. (A child JVM, because the test JVM's heap is larger.)
     */
    @Test
    void theLargestInputsStayWithinASmallHeap() throws Exception {
        List<BadInput> large = unloadable().stream()
                .filter(i -> List.of("device that never ends", "3 GB file", "billion laughs", "merge-key bomb", "deep nesting").contains(i.name()))
                .toList();
        assertThat(large).hasSize(5);
        for (BadInput input : large) {
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m",
                    "-cp", System.getProperty("java.class.path"), PeriscopeCommand.class.getName(), "check", input.file())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err;
            try {
                err = assertTimeoutPreemptively(BOUND, () -> new String(child.getErrorStream().readAllBytes()));
                assertThat(child.waitFor()).as(input.name() + ": " + err).isEqualTo(ExitStatus.BAD_INPUT);
            } finally {
                child.destroyForcibly();
            }
            assertThat(err).as(input.name()).contains(input.problem()).doesNotContain("OutOfMemoryError", "Exception");
        }
    }

    private static void refused(BadInput input, String... args) {
        assertRefused(input, assertTimeoutPreemptively(BOUND, () -> PeriscopeRun.of(args)));
    }

    private static void assertRefused(BadInput input, PeriscopeRun run) {
        assertThat(run.status()).as(input.name() + ": " + run.err()).isEqualTo(ExitStatus.BAD_INPUT);
        String firstLine = run.err().lines().findFirst().orElse("");
        if (input.place().startsWith(":")) {
            // A mistake in the text: file:line:column: ... (place is the pattern after the file)
            assertThat(firstLine).as(input.name()).matches(Pattern.quote(input.file()) + input.place() + ".*");
        } else if (input.place().equals(": ")) {
            // A mistake of the whole file, which has no line: file: ...
            assertThat(firstLine).as(input.name()).startsWith(input.file() + ": ");
        } else {
            assertThat(firstLine).as(input.name()).startsWith(input.place());
        }
        assertThat(run.err()).as(input.name()).contains(input.problem()).contains("fix:");
        assertThat(run.out()).as(input.name()).isEmpty();
        noStackTrace(run);
    }

    private static void noStackTrace(PeriscopeRun run) {
        assertThat(run.err() + run.out()).doesNotContain("Exception", "\tat ", "internal error", "OutOfMemoryError");
    }

    private static BadInput text(String name, String fileName, String content, String place, String problem) throws IOException {
        return write(name, fileName, content.getBytes(java.nio.charset.StandardCharsets.UTF_8), place, problem);
    }

    private static BadInput write(String name, String fileName, byte[] content, String place, String problem) throws IOException {
        Path file = directory.resolve(fileName);
        Files.write(file, content);
        return new BadInput(name, file.toString(), place, problem);
    }

    private static String cluster(String name, String gatewayIp) {
        return """
                name: bad
                clusters:
                  # one cluster
                  - name: %s
                    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [100.1.0.0/16]
                    nodes:
                      - {name: gw, ip: %s, cniIP: 10.1.0.1, gateway: true}
                """.formatted(name, gatewayIp);
    }

    /** Two clusters; {@code eastExtra} goes on line 5, after east's name; east's worker is on line 8 and west's name on line 10 without it. */
    private static String twoClusters(String globalnet, String eastExtra, String eastWorkerIp) {
        return "name: bad\n" + (globalnet.isEmpty() ? "# no globalnet\n" : globalnet) + """
                clusters:
                  - name: east
                %s    podCIDRs: [10.1.0.0/16]
                    serviceCIDRs: [100.1.0.0/16]
                    nodes:
                      - {name: worker, ip: %s, cniIP: 10.1.1.1}
                      - {name: gw, ip: 172.18.0.6, cniIP: 10.1.0.1, gateway: true}
                  - name: west
                    podCIDRs: [10.2.0.0/16]
                    serviceCIDRs: [100.2.0.0/16]
                    nodes:
                      - {name: gw, ip: 172.18.0.9, cniIP: 10.2.0.1, gateway: true}
                """.formatted(eastExtra, eastWorkerIp);
    }

    private static String billionLaughs() {
        StringBuilder text = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int level = 1; level <= 9; level++) {
            text.append('a').append(level).append(": &a").append(level).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, "*a" + (level - 1)))).append("]\n");
        }
        return text.toString();
    }

    private static String mergeBomb() {
        StringBuilder text = new StringBuilder("m0: &m0 {k: v}\n");
        for (int level = 1; level <= 12; level++) {
            text.append('m').append(level).append(": &m").append(level).append(" {<<: [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, "*m" + (level - 1)))).append("]}\n");
        }
        return text.toString();
    }
}
