import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A step of the CLI's build (cli/pom.xml runs it after the shaded jar is made, with JDK 24 or later,
 * as a single-file program): rewrites the jar's Java 5 class files (picocli's, EMF's) as Java 6 ones,
 * the same bytecode with the stack map frames the Java 6 verifier reads, computed here.
 *
 * <p>Why: the JVM's ahead-of-time cache (JEP 483) cannot hold a class file older than Java 6: it would
 * need the old verifier, which runs only when the class is loaded. So every command loaded and
 * verified picocli's 180 classes from the jar on every run, and the commands that draw EMF's 700, a
 * third of a small command's time. Nothing else changes: a class whose frames cannot be computed (a
 * {@code jsr} of a very old compiler), or whose result the JDK's verifier refuses, is left as it was,
 * and the JVM loads it as before.
 *
 * <p>Usage: {@code java UpgradeOldClassFiles.java JAR}; the jar is replaced in place.
 */
public final class UpgradeOldClassFiles {

    /** Java 6: the first class file version with stack map frames, and the oldest the cache holds. */
    private static final int JAVA_6 = 50;

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java UpgradeOldClassFiles.java JAR");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Map<String, byte[]> classes = new HashMap<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        classes.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        }
        // Frames name the common supertype where branches meet: the jar's classes answer for themselves,
        // the JDK's for its own.
        ClassHierarchyResolver resolver = ClassHierarchyResolver.ofResourceParsing(
                        (ClassDesc desc) -> {
                            byte[] bytes = classes.get(desc.descriptorString().substring(1, desc.descriptorString().length() - 1) + ".class");
                            return bytes == null ? null : new java.io.ByteArrayInputStream(bytes);
                        })
                .orElse(ClassHierarchyResolver.defaultResolver()).cached();
        ClassFile classFile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(resolver),
                ClassFile.StackMapsOption.GENERATE_STACK_MAPS);
        ClassTransform toJava6 = ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                .andThen((builder, element) -> {
                    if (element instanceof ClassFileVersion) {
                        builder.withVersion(JAVA_6, 0);
                    } else {
                        builder.with(element);
                    }
                });
        Map<String, byte[]> upgraded = new HashMap<>();
        int kept = 0;
        for (Map.Entry<String, byte[]> entry : classes.entrySet()) {
            byte[] bytes = entry.getValue();
            int major = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
            if (major >= JAVA_6) {
                continue;
            }
            try {
                byte[] java6 = classFile.transformClass(classFile.parse(bytes), toJava6);
                // The JDK's own port of the Java 6 verifier checks the frames made here; a class they
                // do not verify is left as it was (the JVM would fall back to the old verifier anyway).
                if (classFile.verify(java6).isEmpty()) {
                    upgraded.put(entry.getKey(), java6);
                } else {
                    kept++;
                }
            } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
                kept++;   // left as it was: the JVM verifies it the old way, as before
            }
        }
        if (upgraded.isEmpty()) {
            System.out.println("UpgradeOldClassFiles: no Java 5 class files in " + jar);
            return;
        }
        Path rewritten = jar.resolveSibling(jar.getFileName() + ".upgrading");
        try (ZipFile zip = new ZipFile(jar.toFile());
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(rewritten))) {
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                ZipEntry copy = new ZipEntry(entry.getName());
                copy.setTime(entry.getTime());
                out.putNextEntry(copy);
                byte[] replacement = upgraded.get(entry.getName());
                if (replacement != null) {
                    out.write(replacement);
                } else {
                    try (InputStream in = zip.getInputStream(entry)) {
                        in.transferTo(out);
                    }
                }
                out.closeEntry();
            }
        }
        Files.move(rewritten, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("UpgradeOldClassFiles: " + upgraded.size() + " Java 5 class files of " + jar.getFileName()
                + " rewritten as Java 6 with stack map frames" + (kept == 0 ? "" : "; " + kept + " left as they were"));
    }
}
