package io.periscope.lab.install;

import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;

import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every place the Java sources (main and test) start a program, and which program each starts.
 * The sources are parsed with the JDK's own parser; a <em>start site</em> is a node that hands an
 * argv to something that runs it ({@link #STARTERS}): {@code new ProcessBuilder(...)}, the argv
 * record of the command runner ({@code Command}), Selenium's driver and browser
 * paths. From each site the argv is followed back to where its program is written: through local
 * variables and the lists they are built from ({@code add}, {@code addAll}), fields, the returns of
 * methods of the same class, the callers of the method whose parameter it is (a helper such as
 * {@code rig.in(ns, "iperf3", ...)}), and through wrappers that run another program ({@code ip netns
 * exec NS P}, {@code timeout N P}, {@code setsid P}, {@code flock F P}, {@code runuser -u U -- P},
 * {@code setpriv ... P}, {@code sh -c TEXT}, a shell fed its script on standard input).
 *
 * <p>Where the program cannot be followed to a string literal, the site is <em>unresolved</em>, and
 * the check fails naming it, unless {@link #REVIEWED} says, for that file and that expression, which
 * programs it runs. So a new way of starting a program cannot slip past: it is either followed to its
 * literal or stops the build until someone has looked at it. A review names only programs written
 * as literals in its file, and a review whose expression is gone fails too, so the list stays true.
 */
final class ProcessStartSites {

    /** Marks text the scan cannot see (a value computed at run time) inside shell text built in Java. */
    static final String UNKNOWN = " \u2047 ";

    /** A program name as the sources write it. */
    private static final Pattern PROGRAM = Pattern.compile("[a-z][\\w.+-]*");

    /** A program named by absolute path in a bin directory: {@code /usr/bin/chromedriver}. */
    private static final Pattern BIN_PATH = Pattern.compile("/(?:usr/)?(?:local/)?s?bin/([a-z][\\w.+-]*)");

    /**
     * The calls that start a program, by the name of the method or class: the argument at
     * {@code index} is the argv ({@code ARGV}, the arguments from {@code index} on when there are
     * several) or a path to the program ({@code PATH}).
     */
    enum Starter {
        PROCESS_BUILDER("ProcessBuilder", 0, true),
        RUNTIME_EXEC("exec", 0, true),
        PROCESS_BUILDER_COMMAND("command", 0, true),
        COMMAND("Command", 0, true),
        SELENIUM_DRIVER("usingDriverExecutable", 0, false),
        SELENIUM_BROWSER("setBinary", 0, false);

        final String name;
        final int index;
        final boolean argv;

        Starter(String name, int index, boolean argv) {
            this.name = name;
            this.index = index;
            this.argv = argv;
        }
    }

    /**
     * A site whose program the scan cannot follow to a literal, looked at by a person: in
     * {@code file}, the expression {@code code} (whitespace collapsed) runs {@code programs}.
     */
    record Review(String file, String code, Set<String> programs, String why) {
    }

    static final List<Review> REVIEWED = List.of(
            new Review("agents/dataplane/src/main/java/io/periscope/dataplane/ovs/OvsBridgeProgrammer.java", "change.kernel().get()",
                    Set.of("ip", "ethtool"), "a BridgeChange's kernel program: ip addr/link or ethtool -K (BridgeChange.kernel), the two the file reads with"),
            new Review("agents/dataplane/src/main/java/io/periscope/dataplane/command/ProcessCommandRunner.java", "command.argv()", Set.of(),
                    "ProcessCommandRunner runs a Command's argv; every Command is a start site of its own where it is built"),
            new Review("agents/dataplane/src/main/java/io/periscope/dataplane/command/Command.java", "argv", Set.of(),
                    "withStdin and inNamespace copy the argv of a Command that was a start site where it was built"),
            new Review("agents/dns/src/test/java/io/periscope/dns/DigAndKdigReadTheAnswers.java", "client", Set.of("dig", "kdig"),
                    "the client comes from the @MethodSource clients(): Arguments.of(\"dig\", ...) and Arguments.of(\"kdig\", ...)"),
            new Review("cli/src/test/java/io/periscope/cli/CommandInAProcess.java", "argv.addFirst(\"setsid\")", Set.of("setsid"),
                    "a command in a process group of its own starts under setsid, put in front of the env ... java argv built above it"),
            new Review("cli/src/test/java/io/periscope/cli/GenerateTopologyAnswersHelpAndRefusesUnknownOptions.java", "SCRIPT.toString()", Set.of(),
                    "the project's own scripts/generate-topology, whose programs the scan reads in the script itself"),
            new Review("visualizer/src/test/java/io/periscope/visualizer/browser/PaintAndRedrawBenchmark.java",
                    "System.getProperty(\"periscope.launcher\")", Set.of(),
                    "the project's own launcher, ./periscope, which scripts/benchmark-visualizer passes; the scan reads its programs in the script itself"));

    /** Methods that look a program up by the name they are given: a call of one names its argument's program. */
    static final Map<String, String> LOOKUPS = Map.of(
            "lab/src/main/java/io/periscope/lab/ovn/OvnSandbox.java", "program",
            "lab/src/main/java/io/periscope/lab/ovn/OvnDaemons.java", "program",
            "lab/src/main/java/io/periscope/lab/ovn/OvnControlPlane.java", "program",
            "lab/src/main/java/io/periscope/lab/ovn/OvnChassis.java", "program");

    record Result(TreeMap<String, Set<String>> programs, List<String> unresolved, List<Review> unusedReviews, int sites) {
    }

    private record Unit(String file, CompilationUnitTree tree, String text) {
        long line(Tree node, SourcePositions positions) {
            return tree.getLineMap().getLineNumber(positions.getStartPosition(tree, node));
        }
    }

    /** An argv element: one value, or a list or array spread into the argv. */
    private record Part(ExpressionTree expression, Unit unit, boolean spread) {
    }

    private final SourcePositions positions;
    private final List<Unit> units = new ArrayList<>();
    private final Map<String, List<Call>> callsByName = new HashMap<>();
    private final TreeMap<String, Set<String>> programs = new TreeMap<>();
    private final List<String> unresolved = new ArrayList<>();
    private final Set<Review> used = new HashSet<>();
    private final Set<String> onStack = new HashSet<>();
    private int sites;

    private record Call(Unit unit, MethodInvocationTree call) {
    }

    private ProcessStartSites(SourcePositions positions) {
        this.positions = positions;
    }

    static Result in(Path repository, List<Path> javaFiles) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("the scan parses the sources with the JDK's compiler, and this Java has none (a JRE?)");
        }
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) javac.getTask(null, files, diagnostic -> { }, List.of("-proc:none"), null,
                    files.getJavaFileObjectsFromPaths(javaFiles));
            ProcessStartSites scan = new ProcessStartSites(Trees.instance(task).getSourcePositions());
            for (CompilationUnitTree tree : task.parse()) {
                JavaFileObject source = tree.getSourceFile();
                Path path = Path.of(source.toUri());
                scan.units.add(new Unit(repository.relativize(path).toString().replace('\\', '/'), tree, Files.readString(path)));
            }
            scan.indexCalls();
            scan.scanStarters();
            List<Review> unused = REVIEWED.stream().filter(r -> !scan.used.contains(r)).toList();
            return new Result(scan.programs, scan.unresolved, unused, scan.sites);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void indexCalls() {
        for (Unit unit : units) {
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
                    callsByName.computeIfAbsent(methodName(node), k -> new ArrayList<>()).add(new Call(unit, node));
                    return super.visitMethodInvocation(node, unused);
                }
            }.scan(unit.tree(), null);
        }
    }

    private void scanStarters() {
        for (Unit unit : units) {
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitNewClass(NewClassTree node, Void unused) {
                    String type = simpleName(node.getIdentifier());
                    for (Starter starter : Starter.values()) {
                        if (starter.name.equals(type) && node.getArguments().size() > starter.index) {
                            site(unit, getCurrentPath(), starter, node.getArguments());
                        }
                    }
                    return super.visitNewClass(node, unused);
                }

                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
                    String name = methodName(node);
                    String receiver = node.getMethodSelect() instanceof MemberSelectTree select ? select.getExpression().toString() : "";
                    for (Starter starter : Starter.values()) {
                        boolean matches = switch (starter) {
                            case COMMAND -> name.equals("of") && receiver.equals(starter.name);
                            case RUNTIME_EXEC -> name.equals("exec") && receiver.contains("Runtime");
                            // ProcessBuilder.command(...): a member call with arguments (the supervisor's static command(dir, hash) is no member call)
                            case PROCESS_BUILDER_COMMAND -> name.equals("command") && !receiver.isEmpty() && !node.getArguments().isEmpty()
                                    && !receiver.startsWith("ProcessHandle");
                            case SELENIUM_DRIVER, SELENIUM_BROWSER -> name.equals(starter.name);
                            case PROCESS_BUILDER -> false;
                        };
                        if (matches && node.getArguments().size() > starter.index) {
                            site(unit, getCurrentPath(), starter, node.getArguments());
                        }
                    }
                    return super.visitMethodInvocation(node, unused);
                }
            }.scan(unit.tree(), null);
        }
    }

    private void site(Unit unit, TreePath path, Starter starter, List<? extends ExpressionTree> arguments) {
        sites++;
        if (!starter.argv) {
            program(arguments.get(starter.index), unit);
            return;
        }
        List<Part> argv = new ArrayList<>();
        List<? extends ExpressionTree> rest = arguments.subList(starter.index, arguments.size());
        // new ProcessBuilder(list) and Command.of(list) take a list, new Command(list, stdin) a list and more;
        // new ProcessBuilder("ip", ...) and Command.of("ip", ...) take the programs' words one by one.
        boolean oneList = starter == Starter.COMMAND && path.getLeaf() instanceof NewClassTree
                || rest.size() == 1 && !isText(rest.getFirst(), unit, path);
        if (oneList) {
            argv.add(new Part(rest.getFirst(), unit, true));
        } else {
            rest.forEach(a -> argv.add(new Part(a, unit, false)));
        }
        runs(argv);
    }

    /** Whether a lone argument is one word (a String) rather than a list or array of words. */
    private boolean isText(ExpressionTree expression, Unit unit, TreePath context) {
        if (expression instanceof LiteralTree || expression instanceof BinaryTree) {
            return true;
        }
        if (expression instanceof MethodInvocationTree call && List.of("toString", "strip", "formatted").contains(methodName(call))) {
            return true;
        }
        if (expression instanceof IdentifierTree identifier) {
            return declaration(identifier.getName().toString(), unit, pathTo(unit, expression, context))
                    .map(v -> v.getType() != null && v.getType().toString().equals("String")).orElse(false);
        }
        return false;
    }

    // ---- argv: the first word is the program; wrappers run a later word ----

    private void runs(List<Part> argv) {
        List<Part> flat = flatten(argv);
        if (flat.isEmpty()) {
            return;
        }
        Part first = flat.getFirst();
        if (first.spread()) {
            for (List<Part> alternative : alternatives(first)) {
                List<Part> joined = new ArrayList<>(alternative);
                joined.addAll(flat.subList(1, flat.size()));
                runs(joined);
            }
            return;
        }
        for (String program : program(first.expression(), first.unit())) {
            wrapped(program, flat.subList(1, flat.size()), first);
        }
    }

    /** Spreads whose elements are written out ({@code List.of("a", "b")}) become their elements. */
    private List<Part> flatten(List<Part> argv) {
        List<Part> flat = new ArrayList<>();
        for (Part part : argv) {
            List<ExpressionTree> elements = part.spread() ? writtenOut(part.expression()) : null;
            if (elements == null) {
                flat.add(part);
            } else {
                elements.forEach(e -> flat.add(new Part(e, part.unit(), false)));
            }
        }
        return flat;
    }

    private static List<ExpressionTree> writtenOut(ExpressionTree expression) {
        ExpressionTree e = unwrap(expression);
        if (e instanceof NewArrayTree array && array.getInitializers() != null) {
            return List.copyOf(array.getInitializers());
        }
        if (e instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select
                && List.of("List.of", "Arrays.asList", "Stream.of").contains(select.getExpression() + "." + select.getIdentifier())
                && (call.getArguments().size() != 1 || call.getArguments().getFirst() instanceof LiteralTree)) {
            return List.copyOf(call.getArguments());
        }
        if (e instanceof NewClassTree created && simpleName(created.getIdentifier()).startsWith("ArrayList") && created.getArguments().isEmpty()) {
            return List.of();
        }
        return null;
    }

    /** What a program that runs another runs: {@code ip netns exec NS P}, {@code timeout 10 P}, {@code sh -c TEXT}. */
    private void wrapped(String program, List<Part> rest, Part at) {
        int next = switch (program) {
            case "ip" -> literal(rest, 0).equals("netns") && literal(rest, 1).equals("exec") ? 3 : -1;
            case "timeout" -> skipOptions(rest, 0) + 1;
            case "flock" -> skipOptions(rest, 0) + 1;
            case "setsid", "nohup", "setpriv" -> skipOptions(rest, 0);
            case "runuser" -> {
                int i = 0;
                while (i < rest.size() && literal(rest, i).startsWith("-")) {
                    boolean end = literal(rest, i).equals("--");
                    i += literal(rest, i).equals("-u") ? 2 : 1;
                    if (end) {
                        break;
                    }
                }
                yield i;
            }
            case "sh", "bash", "dash" -> {
                int c = -1;
                for (int i = 0; i < rest.size(); i++) {
                    if (literal(rest, i).equals("-c")) {
                        c = i;
                        break;
                    }
                }
                if (c >= 0 && c + 1 < rest.size()) {
                    shell(rest.get(c + 1).expression(), rest.get(c + 1).unit());
                } else if (c < 0 && rest.stream().noneMatch(p -> !p.spread() && !literal(p).startsWith("-"))) {
                    // no script named: the shell reads its commands from standard input, given by withStdin(TEXT)
                    Optional<ExpressionTree> stdin = stdinOf(at);
                    if (stdin.isPresent()) {
                        shell(stdin.get(), at.unit());
                    } else {
                        problem(at.expression(), at.unit(), "a shell that reads its commands from standard input the scan cannot see");
                    }
                }
                yield -1;
            }
            default -> -1;
        };
        if (next >= 0 && next < rest.size()) {
            runs(rest.subList(next, rest.size()));
        } else if (next >= 0 && !program.equals("ip")) {
            problem(at.expression(), at.unit(), program + " runs a program the scan cannot find after it");
        }
    }

    private static int skipOptions(List<Part> rest, int from) {
        int i = from;
        while (i < rest.size() && literal(rest, i).startsWith("-")) {
            boolean end = literal(rest, i).equals("--");
            i++;
            if (end) {
                break;
            }
        }
        return i;
    }

    private static String literal(List<Part> parts, int i) {
        return i < parts.size() ? literal(parts.get(i)) : "";
    }

    private static String literal(Part part) {
        return !part.spread() && unwrap(part.expression()) instanceof LiteralTree l && l.getValue() instanceof String s ? s : "";
    }

    /** The text of {@code .withStdin(TEXT)} applied to the invocation that starts at {@code at}. */
    private Optional<ExpressionTree> stdinOf(Part at) {
        TreePath path = TreePath.getPath(at.unit().tree(), at.expression());
        while (path != null) {
            if (path.getLeaf() instanceof MethodInvocationTree call && methodName(call).equals("withStdin") && call.getArguments().size() == 1) {
                return Optional.of(call.getArguments().getFirst());
            }
            Tree leaf = path.getLeaf();
            if (leaf instanceof BlockTree || leaf instanceof MethodTree || leaf instanceof ClassTree) {
                break;
            }
            path = path.getParentPath();
        }
        return Optional.empty();
    }

    // ---- a list-valued expression: where its words come from ----

    /** The argvs a list or array expression can hold, each as its parts; empty after reporting a problem. */
    private List<List<Part>> alternatives(Part spread) {
        ExpressionTree e = unwrap(spread.expression());
        Unit unit = spread.unit();
        String key = key(e, unit) + "#list";
        if (!onStack.add(key)) {
            return List.of();
        }
        try {
            if (e instanceof ConditionalExpressionTree conditional) {
                return List.of(List.of(new Part(conditional.getTrueExpression(), unit, true)),
                        List.of(new Part(conditional.getFalseExpression(), unit, true)));
            }
            if (e instanceof NewClassTree created && simpleName(created.getIdentifier()).startsWith("ArrayList")
                    && created.getArguments().size() == 1) {
                return List.of(List.of(new Part(created.getArguments().getFirst(), unit, true)));
            }
            if (e instanceof MethodInvocationTree call) {
                String name = methodName(call);
                ExpressionTree receiver = call.getMethodSelect() instanceof MemberSelectTree s ? s.getExpression() : null;
                if (receiver != null && List.of("toArray", "toList", "stream").contains(name)) {
                    return List.of(List.of(new Part(receiver, unit, true)));
                }
                if (receiver != null && (receiver.toString() + "." + name).matches("List\\.(of|copyOf)|Arrays\\.asList|Stream\\.of")
                        && call.getArguments().size() == 1) {
                    return List.of(List.of(new Part(call.getArguments().getFirst(), unit, true)));
                }
                if (receiver == null) {
                    Optional<List<List<Part>>> returned = returnsOfSameClassMethod(call, unit, true);
                    if (returned.isPresent()) {
                        return returned.get();
                    }
                }
            }
            if (e instanceof IdentifierTree identifier) {
                return variable(identifier, unit, true);
            }
            if (reviewed(e, unit)) {
                return List.of();
            }
            problem(e, unit, "a list of words built where the scan cannot follow");
            return List.of();
        } finally {
            onStack.remove(key);
        }
    }

    /** The returns of a method of the same class, called without a receiver: {@code command(dir, hash)}. */
    private Optional<List<List<Part>>> returnsOfSameClassMethod(MethodInvocationTree call, Unit unit, boolean list) {
        TreePath path = TreePath.getPath(unit.tree(), call);
        for (TreePath p = path; p != null; p = p.getParentPath()) {
            if (p.getLeaf() instanceof ClassTree type) {
                for (Tree member : type.getMembers()) {
                    if (member instanceof MethodTree method && method.getName().contentEquals(methodName(call)) && method.getBody() != null
                            && method.getParameters().size() == call.getArguments().size()) {
                        List<List<Part>> returned = new ArrayList<>();
                        new TreeScanner<Void, Void>() {
                            @Override
                            public Void visitReturn(ReturnTree node, Void unused) {
                                if (node.getExpression() != null) {
                                    returned.add(List.of(new Part(node.getExpression(), unit, list)));
                                }
                                return null;
                            }

                            @Override
                            public Void visitLambdaExpression(LambdaExpressionTree node, Void unused) {
                                return null;
                            }

                            @Override
                            public Void visitClass(ClassTree node, Void unused) {
                                return null;
                            }
                        }.scan(method.getBody(), null);
                        return Optional.of(returned);
                    }
                }
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * What a variable holds: a local's initializer and what is added to it afterwards, a field's
     * initializer, or, for a parameter, what each caller passes.
     */
    private List<List<Part>> variable(IdentifierTree identifier, Unit unit, boolean list) {
        String name = identifier.getName().toString();
        TreePath path = TreePath.getPath(unit.tree(), identifier);
        for (TreePath p = path; p != null; p = p.getParentPath()) {
            Tree leaf = p.getLeaf();
            if (leaf instanceof LambdaExpressionTree lambda) {
                for (VariableTree parameter : lambda.getParameters()) {
                    if (parameter.getName().contentEquals(name)) {
                        problem(identifier, unit, "a lambda's parameter");
                        return List.of();
                    }
                }
            }
            if (leaf instanceof MethodTree method) {
                Optional<VariableTree> local = localIn(method.getBody(), name);
                if (local.isPresent()) {
                    return List.of(localValue(local.get(), method.getBody(), unit, list));
                }
                List<? extends VariableTree> parameters = method.getParameters();
                for (int i = 0; i < parameters.size(); i++) {
                    if (parameters.get(i).getName().contentEquals(name)) {
                        return callers(method, i, p, unit, identifier, list);
                    }
                }
            }
            if (leaf instanceof ClassTree type) {
                for (Tree member : type.getMembers()) {
                    if (member instanceof VariableTree field && field.getName().contentEquals(name) && field.getInitializer() != null) {
                        return List.of(List.of(new Part(field.getInitializer(), unit, list)));
                    }
                }
            }
        }
        if (!reviewed(identifier, unit)) {
            problem(identifier, unit, "a variable the scan cannot find the value of");
        }
        return List.of();
    }

    private static Optional<VariableTree> localIn(BlockTree body, String name) {
        if (body == null) {
            return Optional.empty();
        }
        VariableTree[] found = new VariableTree[1];
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitVariable(VariableTree node, Void unused) {
                if (found[0] == null && node.getName().contentEquals(name)) {
                    found[0] = node;
                }
                return super.visitVariable(node, unused);
            }

            @Override
            public Void visitClass(ClassTree node, Void unused) {
                return null;
            }
        }.scan(body, null);
        return Optional.ofNullable(found[0]);
    }

    /** A local's initializer, then, for a list, every {@code add}/{@code addAll} to it in the method, in order. */
    private List<Part> localValue(VariableTree local, BlockTree body, Unit unit, boolean list) {
        List<Part> parts = new ArrayList<>();
        if (local.getInitializer() == null) {
            // assigned later: every assignment is a possibility; the first one is enough for a program
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitAssignment(com.sun.source.tree.AssignmentTree node, Void unused) {
                    if (node.getVariable() instanceof IdentifierTree target && target.getName().contentEquals(local.getName())) {
                        parts.add(new Part(node.getExpression(), unit, list));
                    }
                    return super.visitAssignment(node, unused);
                }
            }.scan(body, null);
            return parts.isEmpty() ? parts : List.of(parts.getFirst());
        }
        parts.add(new Part(local.getInitializer(), unit, list));
        if (list) {
            new TreeScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
                    if (node.getMethodSelect() instanceof MemberSelectTree select && select.getExpression() instanceof IdentifierTree target
                            && target.getName().contentEquals(local.getName())) {
                        String name = select.getIdentifier().toString();
                        if ((name.equals("add") || name.equals("addLast")) && node.getArguments().size() == 1) {
                            parts.add(new Part(node.getArguments().getFirst(), unit, false));
                        } else if (name.equals("addAll") && node.getArguments().size() == 1) {
                            parts.add(new Part(node.getArguments().getFirst(), unit, true));
                        } else if (name.equals("addFirst") || name.equals("add") && node.getArguments().size() == 2) {
                            problem(node, unit, "a word put in front of a list");
                        }
                    }
                    return super.visitMethodInvocation(node, unused);
                }
            }.scan(body, null);
        }
        return parts;
    }

    /** What the callers of {@code method} pass for its parameter {@code index}: each caller is an argv (or a program) of its own. */
    private List<List<Part>> callers(MethodTree method, int index, TreePath methodPath, Unit unit, ExpressionTree at, boolean list) {
        if (reviewed(at, unit)) {
            return List.of();
        }
        VariableTree parameter = method.getParameters().get(index);
        boolean varargs = parameter.getType() != null && parameter.getType().toString().endsWith("[]")
                && index == method.getParameters().size() - 1 && unit.text().substring(
                (int) positions.getStartPosition(unit.tree(), parameter), (int) positions.getEndPosition(unit.tree(), parameter)).contains("...");
        String methodName = method.getName().toString();
        if (methodName.equals("<init>")) {
            problem(at, unit, "a constructor's parameter");
            return List.of();
        }
        String className = enclosingClassName(methodPath);
        String directory = unit.file().contains("/") ? unit.file().substring(0, unit.file().lastIndexOf('/') + 1) : "";
        boolean isPrivate = method.getModifiers().getFlags().contains(Modifier.PRIVATE);
        List<List<Part>> found = new ArrayList<>();
        int params = method.getParameters().size();
        for (Call call : callsByName.getOrDefault(methodName, List.of())) {
            Unit caller = call.unit();
            boolean inScope = caller.file().equals(unit.file()) || !isPrivate
                    && (caller.file().startsWith(directory) && caller.file().indexOf('/', directory.length()) < 0
                    || Pattern.compile("\\b" + Pattern.quote(className) + "\\b").matcher(caller.text()).find());
            int count = call.call().getArguments().size();
            boolean arity = varargs ? count >= params - 1 : count == params;
            if (!inScope || !arity || call.call() == at || !compatible(call, index, parameter) || ofAnotherClass(call, className)) {
                continue;
            }
            List<? extends ExpressionTree> arguments = call.call().getArguments();
            if (varargs && list) {
                List<Part> parts = new ArrayList<>();
                boolean oneArray = count == params && !isText(arguments.get(index), caller, null);
                for (int i = index; i < count; i++) {
                    parts.add(new Part(arguments.get(i), caller, oneArray));
                }
                found.add(parts);
            } else if (index < count) {
                found.add(List.of(new Part(arguments.get(index), caller, list)));
            }
        }
        if (found.isEmpty()) {
            problem(at, unit, "a parameter of " + methodName + " that no call in the sources passes (called by a framework?)");
        }
        return found;
    }

    /** Whether a call can be of the method (another overload or another class's method of the same name is skipped). */
    /**
     * A static call on another class ({@code List.of(x)} is no call of {@code Command.of}): since every
     * lab and agent file names {@code Command}, following those would follow every {@code List.of}.
     */
    private static boolean ofAnotherClass(Call call, String className) {
        return call.call().getMethodSelect() instanceof MemberSelectTree select && select.getExpression() instanceof IdentifierTree owner
                && Character.isUpperCase(owner.getName().charAt(0)) && !owner.getName().contentEquals(className);
    }

    private boolean compatible(Call call, int index, VariableTree parameter) {
        if (index >= call.call().getArguments().size()) {
            return true;
        }
        String type = parameter.getType() == null ? "" : parameter.getType().toString();
        ExpressionTree argument = unwrap(call.call().getArguments().get(index));
        boolean wantsText = type.equals("String") || type.equals("String[]");
        if (argument instanceof NewClassTree created) {
            String made = simpleName(created.getIdentifier());
            return wantsText ? made.equals("String") : !made.equals("String");
        }
        // Command.of(...).withStdin(...), Command.of(...).inNamespace(...): a value of a type the sources' runners take, no word
        ExpressionTree root = argument;
        while (root instanceof MethodInvocationTree invocation && invocation.getMethodSelect() instanceof MemberSelectTree select) {
            root = select.getExpression();
        }
        if (root != argument && root instanceof IdentifierTree owner && List.of("Command", "Path", "Duration").contains(owner.getName().toString())) {
            return false;
        }
        if (argument instanceof LiteralTree literal) {
            return wantsText == literal.getValue() instanceof String;
        }
        return true;
    }

    // ---- one word: the program ----

    /** The programs one word can name; reports a problem when it cannot be followed to literals. */
    private Set<String> program(ExpressionTree expression, Unit unit) {
        Set<String> names = new TreeSet<>();
        ExpressionTree e = unwrap(expression);
        String key = key(e, unit) + "#word";
        if (!onStack.add(key)) {
            return names;
        }
        try {
            String text = e.toString().replaceAll("\\s+", "");
            if (e instanceof LiteralTree literal && literal.getValue() instanceof String s) {
                Matcher bin = BIN_PATH.matcher(s);
                if (PROGRAM.matcher(s).matches()) {
                    names.add(record(s, unit));
                } else if (bin.matches()) {
                    names.add(record(bin.group(1), unit));
                } else {
                    problem(e, unit, "\"" + s + "\" is no program name");
                }
            } else if (text.startsWith("ProcessHandle.current().info().command()") || text.contains("System.getProperty(\"java.home\")")
                    && text.endsWith("\"java\")")) {
                // the JVM that runs the tests (or the command): the JDK is a prerequisite
                names.add(record("java", unit));
                if (e instanceof MethodInvocationTree call && methodName(call).equals("orElse")) {
                    names.addAll(program(call.getArguments().getFirst(), unit));
                }
            } else if (e instanceof ConditionalExpressionTree conditional) {
                names.addAll(program(conditional.getTrueExpression(), unit));
                names.addAll(program(conditional.getFalseExpression(), unit));
            } else if (e instanceof MethodInvocationTree call) {
                String name = methodName(call);
                ExpressionTree receiver = call.getMethodSelect() instanceof MemberSelectTree s ? s.getExpression() : null;
                String path = pathLiteral(call);
                if (path != null) {
                    Matcher bin = BIN_PATH.matcher(path);
                    if (bin.matches()) {
                        names.add(record(bin.group(1), unit));
                    } else {
                        problem(e, unit, path + " is not a program in a bin directory");
                    }
                } else if (receiver != null && List.of("toString", "toFile", "toAbsolutePath", "getAbsolutePath", "strip").contains(name)) {
                    names.addAll(program(receiver, unit));
                } else if (receiver == null && name.equals(LOOKUPS.get(unit.file())) && call.getArguments().size() == 1) {
                    names.addAll(program(call.getArguments().getFirst(), unit));
                } else if (receiver == null && returnsOfSameClassMethod(call, unit, false).isPresent()) {
                    for (List<Part> returned : returnsOfSameClassMethod(call, unit, false).get()) {
                        names.addAll(program(returned.getFirst().expression(), unit));
                    }
                } else if (!reviewed(e, unit)) {
                    problem(e, unit, "a word computed where the scan cannot follow");
                }
            } else if (e instanceof IdentifierTree identifier) {
                for (List<Part> value : variable(identifier, unit, false)) {
                    for (Part part : value) {
                        names.addAll(program(part.expression(), part.unit()));
                    }
                }
            } else if (e instanceof MemberSelectTree select && select.getExpression() instanceof IdentifierTree owner) {
                names.addAll(constant(owner.getName().toString(), select.getIdentifier().toString(), unit, e));
            } else if (!reviewed(e, unit)) {
                problem(e, unit, "a word the scan cannot follow");
            }
            return names;
        } finally {
            onStack.remove(key);
        }
    }

    /** {@code Type.NAME}: the initializer of a static field of a class of the sources. */
    private Set<String> constant(String type, String field, Unit unit, ExpressionTree at) {
        for (Unit other : units) {
            for (Tree declared : other.tree().getTypeDecls()) {
                if (declared instanceof ClassTree c && c.getSimpleName().contentEquals(type)) {
                    for (Tree member : c.getMembers()) {
                        if (member instanceof VariableTree v && v.getName().contentEquals(field) && v.getInitializer() != null) {
                            return program(v.getInitializer(), other);
                        }
                    }
                }
            }
        }
        if (!reviewed(at, unit)) {
            problem(at, unit, "a constant the scan cannot find");
        }
        return Set.of();
    }

    /** {@code Path.of("/usr/bin/x")}, {@code Paths.get(...)}, {@code new File(...)} of literals only: the path. */
    private static String pathLiteral(MethodInvocationTree call) {
        if (!(call.getMethodSelect() instanceof MemberSelectTree select)) {
            return null;
        }
        String name = select.getExpression() + "." + select.getIdentifier();
        if (!name.equals("Path.of") && !name.equals("Paths.get")) {
            return null;
        }
        StringBuilder path = new StringBuilder();
        for (ExpressionTree argument : call.getArguments()) {
            if (!(argument instanceof LiteralTree literal && literal.getValue() instanceof String s)) {
                return null;
            }
            path.append(path.isEmpty() ? "" : "/").append(s);
        }
        return path.toString();
    }

    // ---- shell text written in Java ----

    /** The programs of shell text the code builds: literals as they are, what is computed at run time as {@link #UNKNOWN}. */
    private void shell(ExpressionTree expression, Unit unit) {
        // the whole script is a parameter (bash -c script): each caller passes a script of its own
        if (unwrap(expression) instanceof IdentifierTree identifier && isParameter(identifier, TreePath.getPath(unit.tree(), identifier))) {
            for (List<Part> caller : variable(identifier, unit, false)) {
                caller.forEach(part -> shell(part.expression(), part.unit()));
            }
            return;
        }
        String script = text(expression, unit);
        for (String word : ProgramsTheCodeRuns.shellCommandWords(script)) {
            if (word.contains(UNKNOWN.strip())) {
                problem(expression, unit, "shell text whose command is computed at run time");
            } else if (PROGRAM.matcher(word).matches() && !ProgramsTheCodeRuns.SHELL_WORDS.contains(word)) {
                record(word, unit);
            }
        }
    }

    private String text(ExpressionTree expression, Unit unit) {
        ExpressionTree e = unwrap(expression);
        String key = key(e, unit) + "#text";
        if (!onStack.add(key)) {
            return UNKNOWN;
        }
        try {
            if (e instanceof LiteralTree literal) {
                return String.valueOf(literal.getValue());
            }
            if (e instanceof BinaryTree binary && binary.getKind() == Tree.Kind.PLUS) {
                return text(binary.getLeftOperand(), unit) + text(binary.getRightOperand(), unit);
            }
            if (e instanceof NewClassTree created && simpleName(created.getIdentifier()).equals("StringBuilder") && created.getArguments().size() == 1) {
                return text(created.getArguments().getFirst(), unit);
            }
            if (e instanceof MethodInvocationTree call && call.getMethodSelect() instanceof MemberSelectTree select) {
                String name = select.getExpression() + "." + select.getIdentifier();
                if (name.equals("String.join") && !call.getArguments().isEmpty()) {
                    String separator = text(call.getArguments().getFirst(), unit);
                    List<String> pieces = new ArrayList<>();
                    call.getArguments().subList(1, call.getArguments().size()).forEach(a -> pieces.add(text(a, unit)));
                    return String.join(separator, pieces);
                }
                if (select.getIdentifier().contentEquals("append") || select.getIdentifier().contentEquals("toString")) {
                    // a StringBuilder: its first piece starts the text; what is appended follows it
                    StringBuilder built = new StringBuilder(text(select.getExpression(), unit));
                    call.getArguments().forEach(a -> built.append(text(a, unit)));
                    return built.toString();
                }
                return UNKNOWN;
            }
            if (e instanceof MethodInvocationTree call) {
                Optional<List<List<Part>>> returned = returnsOfSameClassMethod(call, unit, false);
                if (returned.isPresent()) {
                    StringBuilder all = new StringBuilder();
                    returned.get().forEach(r -> all.append(text(r.getFirst().expression(), r.getFirst().unit())).append('\n'));
                    return all.toString();
                }
                return UNKNOWN;
            }
            if (e instanceof IdentifierTree identifier) {
                // a local or field holding text: its value; anything else is known only at run time
                TreePath path = TreePath.getPath(unit.tree(), identifier);
                Optional<VariableTree> declared = declaration(identifier.getName().toString(), unit, path);
                if (declared.isPresent() && declared.get().getInitializer() != null) {
                    return text(declared.get().getInitializer(), unit);
                }
                return UNKNOWN;
            }
            return UNKNOWN;
        } finally {
            onStack.remove(key);
        }
    }

    private static boolean isParameter(IdentifierTree identifier, TreePath path) {
        for (TreePath p = path; p != null; p = p.getParentPath()) {
            if (p.getLeaf() instanceof MethodTree method) {
                return localIn(method.getBody(), identifier.getName().toString()).isEmpty()
                        && method.getParameters().stream().anyMatch(v -> v.getName().contentEquals(identifier.getName()));
            }
        }
        return false;
    }

    // ---- helpers ----

    private Optional<VariableTree> declaration(String name, Unit unit, TreePath path) {
        for (TreePath p = path; p != null; p = p.getParentPath()) {
            if (p.getLeaf() instanceof MethodTree method) {
                Optional<VariableTree> local = localIn(method.getBody(), name);
                if (local.isPresent()) {
                    return local;
                }
                for (VariableTree parameter : method.getParameters()) {
                    if (parameter.getName().contentEquals(name)) {
                        return Optional.of(parameter);
                    }
                }
            }
            if (p.getLeaf() instanceof ClassTree type) {
                for (Tree member : type.getMembers()) {
                    if (member instanceof VariableTree field && field.getName().contentEquals(name)) {
                        return Optional.of(field);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static TreePath pathTo(Unit unit, Tree node, TreePath hint) {
        TreePath found = hint == null ? null : TreePath.getPath(hint, node);
        return found != null ? found : TreePath.getPath(unit.tree(), node);
    }

    private static String enclosingClassName(TreePath path) {
        for (TreePath p = path; p != null; p = p.getParentPath()) {
            if (p.getLeaf() instanceof ClassTree type && !type.getSimpleName().isEmpty()) {
                return type.getSimpleName().toString();
            }
        }
        return "";
    }

    private String record(String program, Unit unit) {
        programs.computeIfAbsent(program, k -> new TreeSet<>()).add(unit.file());
        return program;
    }

    private boolean reviewed(Tree expression, Unit unit) {
        String code = code(expression, unit);
        for (Review review : REVIEWED) {
            if (review.file().equals(unit.file()) && review.code().equals(code)) {
                used.add(review);
                for (String program : review.programs()) {
                    if (!unit.text().contains("\"" + program + "\"")) {
                        unresolved.add(unit.file() + ": the review of `" + code + "` names " + program
                                + ", which the file does not write as a literal: the review is out of date");
                    }
                    record(program, unit);
                }
                return true;
            }
        }
        return false;
    }

    private void problem(Tree expression, Unit unit, String why) {
        if (reviewed(expression, unit)) {
            return;
        }
        String line = unit.file() + ":" + unit.line(expression, positions) + ": `" + code(expression, unit) + "` (" + why + ")";
        if (!unresolved.contains(line)) {
            unresolved.add(line);
        }
    }

    private String code(Tree expression, Unit unit) {
        long start = positions.getStartPosition(unit.tree(), expression);
        long end = positions.getEndPosition(unit.tree(), expression);
        return start < 0 || end < start ? expression.toString() : unit.text().substring((int) start, (int) end).replaceAll("\\s+", " ");
    }

    /** A node's place: a file and its start and end (a concatenation and its left operand start at the same place). */
    private String key(Tree node, Unit unit) {
        return unit.file() + "@" + positions.getStartPosition(unit.tree(), node) + "-" + positions.getEndPosition(unit.tree(), node);
    }

    private static ExpressionTree unwrap(ExpressionTree expression) {
        ExpressionTree e = expression;
        while (e instanceof ParenthesizedTree || e instanceof TypeCastTree) {
            e = e instanceof ParenthesizedTree p ? p.getExpression() : ((TypeCastTree) e).getExpression();
        }
        return e;
    }

    private static String methodName(MethodInvocationTree call) {
        return switch (call.getMethodSelect()) {
            case MemberSelectTree select -> select.getIdentifier().toString();
            case IdentifierTree identifier -> identifier.getName().toString();
            default -> "";
        };
    }

    private static String simpleName(Tree type) {
        String name = type.toString();
        int generic = name.indexOf('<');
        String raw = generic < 0 ? name : name.substring(0, generic);
        return raw.substring(raw.lastIndexOf('.') + 1) + (generic < 0 ? "" : name.substring(generic));
    }
}
