# Finds a JDK of release 21 or later for ./periscope and ./run-tests; meant to be sourced.
#
# periscope_find_jdk sets JAVA_HOME to the JDK it picks (and periscope_release to its feature release)
# and returns 0, or prints what to install and returns 2. Order: $JAVA_HOME, the `java` on PATH, then
# the newest JDK under /usr/lib/jvm. A JDK (with javac), not a bare runtime, because both callers may
# have to compile the project.

PERISCOPE_MIN_JAVA=21

# The feature release of the JDK at $1 (17, 21, 25, ...) in periscope_release; returns 1 when it is not
# a usable JDK. A variable, not output: output would be read through $(...), a fork, and on a machine
# where starting a process takes milliseconds the launcher's forks were a third of a small command
# (docs/benchmarks.md, "A slower machine, and the launcher's own start").
periscope_jdk_release() {
    local home=$1 version= line
    periscope_release=
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 1
    # The release file answers without starting a JVM; older or odd layouts fall back to `java -version`.
    if [ -r "$home/release" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            case $line in
                JAVA_VERSION=\"*\") version=${line#JAVA_VERSION=\"}; version=${version%\"}; break ;;
            esac
        done < "$home/release"
    fi
    if [ -z "$version" ]; then
        version=$("$home/bin/java" -version 2>&1 | sed -n 's/^.* version "\([^"]*\)".*$/\1/p' | head -n 1)
    fi
    case $version in
        1.*) version=${version#1.} ;;   # Java 8 and older spell themselves 1.N
    esac
    version=${version%%[!0-9]*}
    [ -n "$version" ] || return 1
    periscope_release=$version
}

# The JDK home a java launcher belongs to (following /usr/bin/java -> /etc/alternatives -> ...), in
# periscope_java_home.
periscope_home_of_java() {
    local java
    java=$(readlink -f "$1") || return 1
    java=${java%/*}
    periscope_java_home=${java%/*}
}

periscope_find_jdk() {
    local candidate best= best_release=0 on_path= too_old= dir dirs

    if [ -n "${JAVA_HOME:-}" ]; then
        if periscope_jdk_release "$JAVA_HOME"; then
            [ "$periscope_release" -ge "$PERISCOPE_MIN_JAVA" ] && return 0
            too_old="JAVA_HOME=$JAVA_HOME is a JDK $periscope_release."
        else
            too_old="JAVA_HOME=$JAVA_HOME is not a JDK (no bin/java and bin/javac)."
        fi
    fi

    # The first java on PATH, looked up without a fork (as `command -v java` would find it).
    IFS=: read -r -a dirs <<< "$PATH"
    for dir in "${dirs[@]}"; do
        if [ -f "${dir:-.}/java" ] && [ -x "${dir:-.}/java" ]; then
            on_path=${dir:-.}/java
            break
        fi
    done
    if [ -n "$on_path" ]; then
        if periscope_home_of_java "$on_path" && candidate=$periscope_java_home &&
                periscope_jdk_release "$candidate" && [ "$periscope_release" -ge "$PERISCOPE_MIN_JAVA" ]; then
            export JAVA_HOME=$candidate
            return 0
        fi
    fi

    for candidate in /usr/lib/jvm/*; do
        [ -d "$candidate" ] || continue
        periscope_jdk_release "$candidate" || continue
        if [ "$periscope_release" -ge "$PERISCOPE_MIN_JAVA" ] && [ "$periscope_release" -gt "$best_release" ]; then
            best=$candidate
            best_release=$periscope_release
        fi
    done
    if [ -n "$best" ]; then
        export JAVA_HOME=$best
        periscope_release=$best_release
        return 0
    fi

    {
        echo "periscope needs a JDK $PERISCOPE_MIN_JAVA or later, and none was found"
        echo "  (looked at \$JAVA_HOME, the java on PATH, and /usr/lib/jvm/*)."
        [ -z "$too_old" ] || echo "  $too_old"
        echo "Install one, for example:  apt-get install openjdk-21-jdk"
        echo "or a Temurin JDK from https://adoptium.net/, then set JAVA_HOME to it if it lives elsewhere."
    } >&2
    return 2
}
