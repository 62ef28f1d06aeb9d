package io.periscope.lab.install;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The programs the repository's code and tests start, found by reading the sources: Java (main and
 * test) where it hands a program name to something that runs it, and the shell scripts (the
 * launcher, {@code run-tests}, {@code scripts/}, scripts under {@code src/}) by the first word of
 * each command. A call whose program is not a string literal at the call (an {@code argv} built
 * elsewhere) is found where that {@code argv} is built: those shapes are listed in {@link #JAVA}.
 */
record ProgramsTheCodeRuns(TreeMap<String, Set<String>> programs) {

    /** Where a program name stands in Java source: group 1 is the name. */
    static final List<Pattern> JAVA = Stream.of(
            // the runners: Invocation.of("ip", ...), Command.of("ipset", ...), new ProcessBuilder("kill", ...)
            "(?:Invocation|Command)\\.of\\(\\s*(?:List\\.of\\(\\s*)?\"([a-z][\\w.+-]*)\"",
            "new ProcessBuilder\\(\\s*(?:List\\.of\\(\\s*)?\"([a-z][\\w.+-]*)\"",
            "new Command\\(\\s*List\\.of\\(\\s*\"([a-z][\\w.+-]*)\"",
            // an argv built first and run later: argv = new ArrayList<>(List.of("sysctl", ...)), new String[]{"ip", ...}
            "argv\\w*\\s*=\\s*new (?:java\\.util\\.)?ArrayList<>\\(List\\.of\\(\\s*\"([a-z][\\w.+-]*)\"",
            "new String\\[\\]\\s*\\{\\s*\"([a-z][\\w.+-]*)\"",
            // a program run inside a namespace: "ip", "netns", "exec", NS, "tcpdump"
            "\"netns\",\\s*\"exec\",\\s*[^,\"]+,\\s*\"([a-z][\\w.+-]*)\"",
            // helpers that take a program and its arguments: namespace.run("nft", ...), lab.inNamespace(ns, "iptables-save")
            "\\.(?:run|runWithInput)\\(\\s*\"([a-z][\\w.+-]*)\"\\s*,",
            "\\binNamespace\\(\\s*[\\w.()]+,\\s*\"([a-z][\\w.+-]*)\"\\s*[,)]",
            // named program constants and OVN's program("ovsdb-server") lookup; ChangeCommands' batch("ip", ...)
            "\\bPROGRAM\\s*=\\s*\"([a-z][\\w.+-]*)\"",
            "\\bprogram\\(\"([a-z][\\w.+-]*)\"\\)",
            "\\bbatch\\(\"([a-z][\\w.+-]*)\"",
            // programs inside shell text the code writes: "sh", "-c", "command -v ping", "setsid wireguard-go ..."
            "\"sh\",\\s*\"-c\",\\s*\"(?:command -v )?([a-z][\\w.+-]*)",
            "\\bsetsid ([a-z][\\w.+-]*)",
            "\"(wg) set \"",
            "\"(mkdir) -p \"", "\"(mount) -t ", "\"\\s*(sleep) ", "\"(ip) link set \""
    ).map(Pattern::compile).toList();

    /** Words that start a shell command but are the shell's own. */
    static final Set<String> SHELL_WORDS = Set.of("if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case",
            "esac", "in", "function", "local", "echo", "printf", "return", "exit", "set", "export", "source", ".", "cd", "read", "shift",
            "trap", "exec", "wait", "command", "type", "test", "[", "[[", "]]", "true", "false", "unset", "declare", "readonly", "let",
            "eval", "break", "continue", "pushd", "popd", "umask", "shopt", "getopts", "hash", "builtin", "{", "}", "(", ")", "!");

    static ProgramsTheCodeRuns in(Path repository) {
        TreeMap<String, Set<String>> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(repository)) {
            Set<String> functions = new TreeSet<>();
            for (Path file : files.filter(Files::isRegularFile).filter(f -> !excluded(repository.relativize(f))).toList()) {
                String where = repository.relativize(file).toString();
                if (where.endsWith(".java") && where.contains("/src/")) {
                    javaPrograms(Files.readString(file)).forEach(p -> found.computeIfAbsent(p, k -> new TreeSet<>()).add(where));
                } else if (isShellScript(file)) {
                    String script = Files.readString(file);
                    functions.addAll(shellFunctions(script));
                    shellPrograms(script).forEach(p -> found.computeIfAbsent(p, k -> new TreeSet<>()).add(where));
                }
            }
            // A function one script defines and another sources (periscope_find_jdk) is no program.
            found.keySet().removeAll(functions);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ProgramsTheCodeRuns(found);
    }

    private static boolean excluded(Path relative) {
        // This scanner's own sources hold program names as examples, not as programs they run.
        if (relative.toString().replace('\\', '/').contains("src/test/java/io/periscope/lab/install/")) {
            return true;
        }
        // Benchmarks are run by hand, not by run-tests: each says in its header which packages it needs
        // (dnsperf and bind9 for the DNS one), and run-tests installs only what tests and the lab run.
        String path = relative.toString().replace('\\', '/');
        if (path.startsWith("scripts/benchmark-")) {
            return true;
        }
        for (Path part : relative) {
            String name = part.toString();
            if (name.equals("target") || name.startsWith(".") || name.equals("node_modules")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isShellScript(Path file) throws IOException {
        String name = file.getFileName().toString();
        if (name.endsWith(".sh")) {
            return true;
        }
        if (name.contains(".") || Files.size(file) > 200_000) {
            return false;
        }
        try (var lines = Files.lines(file)) {
            String first = lines.findFirst().orElse("");
            return first.startsWith("#!") && (first.contains("bash") || first.endsWith("/sh"));
        } catch (UncheckedIOException binary) {
            return false;
        }
    }

    static Set<String> javaPrograms(String source) {
        Set<String> programs = new TreeSet<>();
        for (Pattern pattern : JAVA) {
            Matcher matcher = pattern.matcher(source);
            while (matcher.find()) {
                programs.add(matcher.group(1));
            }
        }
        // "sh", "-c", "command -v ping": the shell's own words are no programs
        programs.removeAll(SHELL_WORDS);
        return programs;
    }

    /**
     * The first word of every simple command: after a line start, a pipe, {@code ;}, {@code &&},
     * {@code ||}, {@code $(}, a keyword that takes a command ({@code if}, {@code then}, ...) and
     * wrappers that run the next word ({@code sudo}, {@code timeout N}, {@code ip netns exec NS},
     * {@code inside}). Heredoc bodies, comments and assignments are skipped; functions the script
     * defines are its own words.
     */
    static Set<String> shellFunctions(String script) {
        Set<String> functions = new TreeSet<>();
        Matcher definitions = Pattern.compile("(?m)^\\s*(?:function\\s+)?([A-Za-z_][\\w-]*)\\s*\\(\\)\\s*\\{").matcher(script);
        while (definitions.find()) {
            functions.add(definitions.group(1));
        }
        return functions;
    }

    static Set<String> shellPrograms(String script) {
        Set<String> functions = shellFunctions(script);
        Set<String> programs = new TreeSet<>();
        String heredocEnd = null;
        // Array literals (lab_packages=(...)) may span lines: their words are data.
        for (String raw : script.replace("\\\n", " ").replaceAll("=\\([^)]*\\)", "=()").split("\n")) {
            if (heredocEnd != null) {
                if (raw.strip().equals(heredocEnd)) {
                    heredocEnd = null;
                }
                continue;
            }
            Matcher heredoc = Pattern.compile("<<-?\\s*'?\"?(\\w+)").matcher(raw);
            if (heredoc.find()) {
                heredocEnd = heredoc.group(1);
            }
            // Quoted text is data (messages), unless it holds a command substitution; $(( is arithmetic.
            String line = raw.replaceAll("'[^']*'", "''").replaceAll("\"[^\"$]*(?:\\$(?!\\()[^\"$]*)*\"", "\"\"")
                    .replace("$((", "$[").replaceAll("(^|\\s)#.*$", "");
            for (String segment : line.split("\\|\\||&&|\\||;|\\$\\(|`|\\bthen\\b|\\bdo\\b|\\belse\\b")) {
                List<String> words = new ArrayList<>(List.of(segment.strip().split("\\s+")));
                while (!words.isEmpty() && (words.getFirst().isEmpty() || words.getFirst().contains("=")
                        || List.of("if", "while", "until", "!", "{", "(", "exec", "command", "sudo", "time", "elif").contains(words.getFirst()))) {
                    words.removeFirst();
                }
                if (words.isEmpty()) {
                    continue;
                }
                String word = words.getFirst().replaceAll("^[\"(]+|[\")]+$", "");
                if (word.matches("[a-z][\\w.+-]*") && !SHELL_WORDS.contains(word) && !functions.contains(word)) {
                    programs.add(word);
                }
            }
        }
        return programs;
    }
}
