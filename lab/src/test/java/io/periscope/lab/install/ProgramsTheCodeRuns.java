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
 * The programs the repository's code and tests start, found by reading the sources: the Java sources
 * (main and test) by following every place that starts a process to the program it names
 * ({@link ProcessStartSites}, which also reports the places it cannot follow), and the shell scripts
 * (the launcher, {@code run-tests}, {@code scripts/}, scripts under {@code src/}) by the first word
 * of each command.
 *
 * @param unresolved    start sites whose program the scan cannot tell, each "file:line: `code` (why)"
 * @param unusedReviews reviews of {@link ProcessStartSites#REVIEWED} that match no site any more
 * @param sites         how many places in the Java sources start a program
 */
record ProgramsTheCodeRuns(TreeMap<String, Set<String>> programs, List<String> unresolved, List<ProcessStartSites.Review> unusedReviews,
                           int sites) {

    /** Words that start a shell command but are the shell's own. */
    static final Set<String> SHELL_WORDS = Set.of("if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case",
            "esac", "in", "function", "local", "echo", "printf", "return", "exit", "set", "export", "source", ".", "cd", "read", "shift",
            "trap", "exec", "wait", "command", "type", "test", "[", "[[", "]]", "true", "false", "unset", "declare", "readonly", "let",
            "eval", "break", "continue", "pushd", "popd", "umask", "shopt", "getopts", "hash", "builtin", "{", "}", "(", ")", "!");

    static ProgramsTheCodeRuns in(Path repository) {
        TreeMap<String, Set<String>> found = new TreeMap<>();
        List<Path> java = new ArrayList<>();
        try (Stream<Path> files = Files.walk(repository)) {
            Set<String> functions = new TreeSet<>();
            for (Path file : files.filter(Files::isRegularFile).filter(f -> !excluded(repository.relativize(f))).toList()) {
                String where = repository.relativize(file).toString();
                if (where.endsWith(".java") && where.contains("/src/")) {
                    java.add(file);
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
        ProcessStartSites.Result sites = ProcessStartSites.in(repository, java);
        sites.programs().forEach((program, files) -> found.computeIfAbsent(program, k -> new TreeSet<>()).addAll(files));
        return new ProgramsTheCodeRuns(found, sites.unresolved(), sites.unusedReviews(), sites.sites());
    }

    private static boolean excluded(Path relative) {
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

    /** The functions a script defines: its own words, not programs. */
    static Set<String> shellFunctions(String script) {
        Set<String> functions = new TreeSet<>();
        Matcher definitions = Pattern.compile("(?m)^\\s*(?:function\\s+)?([A-Za-z_][\\w-]*)\\s*\\(\\)\\s*\\{").matcher(script);
        while (definitions.find()) {
            functions.add(definitions.group(1));
        }
        return functions;
    }

    /** The programs a script runs: its command words ({@link #shellCommandWords}) less the shell's own and its functions. */
    static Set<String> shellPrograms(String script) {
        Set<String> functions = shellFunctions(script);
        Set<String> programs = new TreeSet<>();
        for (String word : shellCommandWords(script)) {
            if (word.matches("[a-z][\\w.+-]*") && !SHELL_WORDS.contains(word) && !functions.contains(word)) {
                programs.add(word);
            }
        }
        return programs;
    }

    /**
     * The first word of every simple command: after a line start, a pipe, {@code ;}, {@code &&},
     * {@code ||}, {@code $(}, a keyword that takes a command ({@code if}, {@code then}, ...), and the
     * word a wrapper runs as well as the wrapper ({@code setsid P}, {@code nohup P}, {@code timeout N P},
     * {@code flock FILE P}, {@code ip netns exec NS P}, {@code runuser -u U -- P}, {@code setpriv OPTIONS P}).
     * Heredoc bodies, comments, quoted text, assignments and the patterns of a {@code case}'s arms
     * ({@code serve) family=picture ;;}) are skipped.
     */
    static List<String> shellCommandWords(String script) {
        List<String> commands = new ArrayList<>();
        String heredocEnd = null;
        int caseDepth = 0;
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
            if (caseDepth > 0) {
                // An arm's pattern ends in ')' and is not a command: the command, if any, follows it. Only at a
                // line's start inside case ... esac, since elsewhere "word)" closes a $( ... ) substitution.
                line = line.replaceFirst("^\\s*\\(?[^\\s()]+\\)", "");
            }
            caseDepth += count(line, CASE_OPENS) - count(line, CASE_CLOSES);
            for (String segment : line.split("\\|\\||&&|\\||;|\\$\\(|`|\\bthen\\b|\\bdo\\b|\\belse\\b")) {
                List<String> words = new ArrayList<>(List.of(segment.strip().split("\\s+")));
                while (!words.isEmpty() && (words.getFirst().isEmpty() || words.getFirst().contains("=")
                        || List.of("if", "while", "until", "!", "{", "(", "exec", "command", "sudo", "time", "elif").contains(words.getFirst()))) {
                    words.removeFirst();
                }
                while (!words.isEmpty()) {
                    String word = words.removeFirst().replaceAll("^[\"(]+|[\")]+$", "");
                    commands.add(word);
                    int skip = switch (word) {
                        case "setsid", "nohup", "setpriv" -> options(words);
                        case "timeout", "flock" -> options(words) + 1;
                        case "runuser" -> runuserOptions(words);
                        case "ip" -> words.size() > 3 && words.get(0).equals("netns") && words.get(1).equals("exec") ? 3 : -1;
                        default -> -1;
                    };
                    if (skip < 0 || skip >= words.size() || words.get(skip).matches("[0-9<>&|]+")) {
                        break;
                    }
                    words.subList(0, skip).clear();
                }
            }
        }
        return commands;
    }

    private static final Pattern CASE_OPENS = Pattern.compile("(^|[\\s;&|(])case\\s");
    private static final Pattern CASE_CLOSES = Pattern.compile("(^|[\\s;&|])esac\\b");

    private static int count(String line, Pattern pattern) {
        return (int) pattern.matcher(line).results().count();
    }

    /** How many words of {@code runuser}'s options ({@code -u USER}, {@code --}) start {@code words}. */
    private static int runuserOptions(List<String> words) {
        int i = 0;
        while (i < words.size() && words.get(i).startsWith("-")) {
            String option = words.get(i++);
            if (option.equals("--")) {
                break;
            }
            if (option.equals("-u") || option.equals("-g")) {
                i++;
            }
        }
        return i;
    }

    /** How many option words (a dash first, up to and with {@code --}) start {@code words}. */
    private static int options(List<String> words) {
        int i = 0;
        while (i < words.size() && words.get(i).startsWith("-")) {
            if (words.get(i++).equals("--")) {
                break;
            }
        }
        return i;
    }
}
