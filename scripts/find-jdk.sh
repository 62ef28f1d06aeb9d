# Finds a JDK of release 21 or later for ./periscope and ./run-tests; meant to be sourced.
#
# periscope_find_jdk sets JAVA_HOME to the JDK it picks and returns 0, or prints what to install and
# returns 2. Order: $JAVA_HOME, the `java` on PATH, then the newest JDK under /usr/lib/jvm. A JDK
# (with javac), not a bare runtime, because both callers may have to compile the project.

PERISCOPE_MIN_JAVA=21

# The feature release of the JDK at $1 (17, 21, 25, ...), or nothing when it is not a usable JDK.
periscope_jdk_release() {
    local home=$1 version=
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 1
    # The release file answers without starting a JVM; older or odd layouts fall back to `java -version`.
    if [ -r "$home/release" ]; then
        version=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$home/release")
    fi
    if [ -z "$version" ]; then
        version=$("$home/bin/java" -version 2>&1 | sed -n 's/^.* version "\([^"]*\)".*$/\1/p' | head -n 1)
    fi
    case $version in
        1.*) version=${version#1.} ;;   # Java 8 and older spell themselves 1.N
    esac
    version=${version%%[!0-9]*}
    [ -n "$version" ] || return 1
    echo "$version"
}

# The JDK home a java launcher belongs to (following /usr/bin/java -> /etc/alternatives -> ...).
periscope_home_of_java() {
    local java
    java=$(readlink -f "$1") || return 1
    dirname "$(dirname "$java")"
}

periscope_find_jdk() {
    local candidate release best= best_release=0 on_path too_old=

    if [ -n "${JAVA_HOME:-}" ]; then
        if release=$(periscope_jdk_release "$JAVA_HOME"); then
            [ "$release" -ge "$PERISCOPE_MIN_JAVA" ] && return 0
            too_old="JAVA_HOME=$JAVA_HOME is a JDK $release."
        else
            too_old="JAVA_HOME=$JAVA_HOME is not a JDK (no bin/java and bin/javac)."
        fi
    fi

    if on_path=$(command -v java 2>/dev/null); then
        candidate=$(periscope_home_of_java "$on_path")
        if release=$(periscope_jdk_release "$candidate") && [ "$release" -ge "$PERISCOPE_MIN_JAVA" ]; then
            export JAVA_HOME=$candidate
            return 0
        fi
    fi

    for candidate in /usr/lib/jvm/*; do
        [ -d "$candidate" ] || continue
        release=$(periscope_jdk_release "$candidate") || continue
        if [ "$release" -ge "$PERISCOPE_MIN_JAVA" ] && [ "$release" -gt "$best_release" ]; then
            best=$candidate
            best_release=$release
        fi
    done
    if [ -n "$best" ]; then
        export JAVA_HOME=$best
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
