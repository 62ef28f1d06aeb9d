package io.periscope.lab.install;

import io.periscope.lab.netns.NetworkNamespaces;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A fresh Debian machine gets every program the code and the tests run from {@code ./run-tests}:
 * each program found in the sources ({@link ProgramsTheCodeRuns}) has a row in
 * {@code scripts/program-packages.tsv} naming the Debian package that provides it, and that package
 * is in run-tests' {@code lab_packages}, or is one Debian always installs (Priority: required), or
 * is a prerequisite the README names (a JDK, Maven). A new program in the code without a row, or
 * a row whose package run-tests does not install, fails here rather than on the next fresh machine.
 * Where dpkg is present, the table itself is checked against what the packages really install.
 */
class RunTestsInstallsEveryProgramTheCodeRuns {

    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();   // the module (lab/) is at the top level
    static final Path TABLE = REPOSITORY.resolve("scripts/program-packages.tsv");
    static final String PREREQUISITE = "prerequisite";

    /**
     * @param file the name the package installs it under: the program's, or the alternative's target (awk is mawk); an absolute
     *             path where the alternative's target lies outside bin and sbin (ovs-vswitchd is /usr/lib/openvswitch-switch/ovs-vswitchd)
     */
    record Row(String program, String pkg, String file) {
    }

    static Map<String, Row> table() throws IOException {
        Map<String, Row> rows = new TreeMap<>();
        for (String line : Files.readAllLines(TABLE)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t");
            assertThat(fields).as("a row of %s is 'program<TAB>package[<TAB>file]': %s", TABLE, line).hasSizeBetween(2, 3);
            rows.put(fields[0], new Row(fields[0], fields[1], fields.length > 2 && !fields[2].isBlank() ? fields[2] : fields[0]));
        }
        return rows;
    }

    /** The packages Debian installs on every system, from the table's {@code # required:} line. */
    static Set<String> requiredPackages() throws IOException {
        for (String line : Files.readAllLines(TABLE)) {
            if (line.startsWith("# required:")) {
                return new LinkedHashSet<>(Arrays.asList(line.substring("# required:".length()).strip().split("\\s+")));
            }
        }
        throw new AssertionError(TABLE + " has no '# required:' line");
    }

    static Set<String> labPackages() throws IOException {
        Matcher array = Pattern.compile("(?m)^lab_packages=\\(([^)]*)\\)").matcher(Files.readString(REPOSITORY.resolve("run-tests")));
        assertThat(array.find()).as("run-tests defines lab_packages=(...)").isTrue();
        return new LinkedHashSet<>(Arrays.asList(array.group(1).strip().split("\\s+")));
    }

    @Test
    void everyProgramTheCodeRunsHasAPackageThatRunTestsInstalls() throws IOException {
        ProgramsTheCodeRuns found = ProgramsTheCodeRuns.in(REPOSITORY);
        Map<String, Row> table = table();
        Set<String> installed = labPackages();
        Set<String> required = requiredPackages();

        List<String> problems = new ArrayList<>();
        found.programs().forEach((program, files) -> {
            Row row = table.get(program);
            if (row == null) {
                problems.add(program + " (run by " + String.join(", ", files) + ") has no row in " + REPOSITORY.relativize(TABLE)
                        + ": add 'program<TAB>Debian package' (find it with dpkg -S $(command -v " + program + ")), and the package to"
                        + " run-tests' lab_packages");
            } else if (!installed.contains(row.pkg()) && !required.contains(row.pkg()) && !row.pkg().equals(PREREQUISITE)) {
                problems.add(program + " (run by " + String.join(", ", files) + ") comes from package " + row.pkg()
                        + ", which run-tests' lab_packages does not install: add it there");
            }
        });
        assertThat(problems).as("programs a fresh machine would lack").isEmpty();
        assertThat(found.programs()).as("the scan finds the lab's programs at all").containsKeys("ip", "iptables-restore", "nft", "sysctl",
                // each once missed by a scan that knew only some ways of calling a program
                "dig", "kdig", "iperf3", "ss", "setsid", "chromedriver", "chromium", "wireguard-go", "setpriv");
    }

    /**
     * Every place the Java sources start a process is followed to the program it runs, or has been
     * looked at: a new way of starting a program fails here instead of slipping past the scan.
     */
    @Test
    void everyPlaceThatStartsAProcessNamesItsProgram() {
        ProgramsTheCodeRuns found = ProgramsTheCodeRuns.in(REPOSITORY);
        assertThat(found.unresolved()).as("places that start a program the scan cannot follow to the program's name: write the"
                + " program as a string literal where the argv is built, or look at the place and add a Review to"
                + " ProcessStartSites.REVIEWED naming the programs it runs").isEmpty();
        assertThat(found.unusedReviews()).as("reviews in ProcessStartSites.REVIEWED that match no place any more: remove them").isEmpty();
        assertThat(found.sites()).as("the scan finds the places that start programs at all").isGreaterThan(50);
    }

    @Test
    void theTableListsOnlyProgramsTheCodeRuns() throws IOException {
        Set<String> stale = new LinkedHashSet<>(table().keySet());
        stale.removeAll(ProgramsTheCodeRuns.in(REPOSITORY).programs().keySet());
        assertThat(stale).as("rows of %s for programs nothing runs any more: remove them", TABLE).isEmpty();
    }

    /** What the table says is what the packages install: {@code dpkg -L PACKAGE} lists a bin or sbin path of the program. */
    @Test
    void eachInstalledPackageProvidesItsPrograms() throws Exception {
        assumeTrue(onPath("dpkg"), "not a Debian system (no dpkg): the table cannot be checked against the packages here");
        List<String> wrong = new ArrayList<>();
        List<String> unchecked = new ArrayList<>();
        Map<String, String> listings = new TreeMap<>();
        for (Row row : table().values()) {
            if (row.pkg().equals(PREREQUISITE)) {
                continue;
            }
            String listing = listings.computeIfAbsent(row.pkg(), RunTestsInstallsEveryProgramTheCodeRuns::dpkgList);
            if (listing.isEmpty()) {
                unchecked.add(row.pkg());
            } else if (row.file().startsWith("/")) {
                if (!Pattern.compile("(?m)^" + Pattern.quote(row.file()) + "$").matcher(listing).find()) {
                    wrong.add(row.program() + ": package " + row.pkg() + " installs no " + row.file());
                }
            } else if (!Pattern.compile("(?m)/s?bin/" + Pattern.quote(row.file()) + "$").matcher(listing).find()) {
                wrong.add(row.program() + ": package " + row.pkg() + " installs no bin/" + row.file() + " or sbin/" + row.file());
            }
        }
        assertThat(wrong).isEmpty();
        List<String> missing = unchecked.stream().distinct().filter(labPackages()::contains).toList();
        if (!missing.isEmpty()) {
            // run-tests installs them only as root; as another user it names them and carries on, and so does this check
            assumeTrue(NetworkNamespaces.runningAsRoot(), "not root, so run-tests installed nothing and these lab packages are missing"
                    + " here, their programs unchecked: " + String.join(" ", missing) + " (./run-tests as root installs them)");
            assertThat(missing).as("lab packages run-tests installs as root but which are not installed: their programs are unchecked").isEmpty();
        }
    }

    @Test
    void theRequiredPackagesAreOnEveryDebianSystem() throws Exception {
        assumeTrue(onPath("dpkg-query"), "not a Debian system (no dpkg-query)");
        for (String pkg : requiredPackages()) {
            String fields = output("dpkg-query", "-W", "-f=${Essential} ${Priority}", pkg);
            assertThat(fields).as("package %s is marked Essential or Priority: required", pkg).matches("(yes .*|.* required)");
        }
    }

    private static String dpkgList(String pkg) {
        try {
            return output("dpkg", "-L", pkg);
        } catch (Exception e) {
            return "";
        }
    }

    private static String output(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return process.waitFor() == 0 ? text.strip() : "";
    }

    private static boolean onPath(String program) throws IOException, InterruptedException {
        return new ProcessBuilder("sh", "-c", "command -v " + program).start().waitFor() == 0;
    }
}
