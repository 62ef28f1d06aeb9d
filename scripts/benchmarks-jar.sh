# The benchmark programs' jar for scripts/benchmark-*; meant to be sourced after periscope_find_jdk.
#
# The benchmark programs live in the benchmarks/ module, outside the product: its jar holds only
# their classes, and a script runs one with the jar, and the model's test-jar with the topology
# generators (io.periscope.model.generate), next to cli/target/periscope.jar (shaded with everything
# else), which `./periscope --version` builds first:
#
#   "$root/periscope" --version >/dev/null
#   benchmarks=$(periscope_benchmarks_jar "$root") || exit 2
#   java -cp "$root/cli/target/periscope.jar:$benchmarks" io.periscope.benchmarks.lab.X ...
#
# periscope_benchmarks_jar builds the jars when the benchmarks' is missing or older than a pom.xml or
# a file under a src/ directory (as the launcher does for periscope.jar), offline first, then prints
# both as a class path.

# The model's test-jar (the topology generators), or nothing when it is not built yet.
periscope_generators_jar() {
    local f found=""
    for f in "$1"/model/target/periscope-model-*-tests.jar; do
        if [ -f "$f" ]; then found=$f; fi
    done
    echo "$found"
}

periscope_benchmarks_jar() {
    local root=$1
    local jar=$root/benchmarks/target/periscope-benchmarks.jar
    local generators
    generators=$(periscope_generators_jar "$root")
    local state=$root/.periscope
    local log=$state/benchmarks-build.log
    local maven=(mvn -B -q -Dstyle.color=never package -DskipTests -pl benchmarks -am)
    if [ -f "$jar" ] && [ -n "$generators" ] && [ -z "$(find "$root" \( -name target -o -name .git -o -name .periscope -o -name node_modules \) -prune -o \
        -type f \( -name pom.xml -o -path '*/src/*' \) -newer "$jar" -print -quit)" ]; then
        echo "$jar:$generators"
        return 0
    fi
    mkdir -p "$state"
    # The launcher's lock: two Maven builds in one tree would write over each other's target/.
    (
        if command -v flock >/dev/null 2>&1; then
            flock 9
        fi
        echo "building the benchmarks' jar (log: $log)..." >&2
        # Offline first, as the launcher: online only when offline lacked something.
        if ! (cd "$root" && "${maven[@]}" -o) >"$log" 2>&1 </dev/null; then
            if ! grep -q 'offline' "$log" || ! (cd "$root" && "${maven[@]}") >"$log" 2>&1 </dev/null; then
                echo "the benchmarks' build failed (JDK: $JAVA_HOME); the end of $log:" >&2
                tail -n 60 "$log" >&2
                exit 2
            fi
        fi
        # Maven may leave an up-to-date jar untouched; the timestamp is what the staleness check reads.
        touch "$jar"
    ) 9>"$state/build.lock" || return 2
    echo "$jar:$(periscope_generators_jar "$root")"
}

# An older commit's build, for a benchmark that runs the same program side by side on both in one run:
# the commit's tree (git archive, no checkout) under .periscope/anchor-COMMIT, built once with its own
# Maven reactor (offline first), then its shaded jar and the model's test-jar printed as a class path.
# The benchmark program itself comes from today's benchmarks jar; it uses only API the anchor has.
periscope_anchor_jars() {
    local root=$1 commit=$2
    local full
    full=$(git -C "$root" rev-parse --verify "$commit^{commit}") || { echo "no commit $commit in $root" >&2; return 2; }
    local dir=$root/.periscope/anchor-${full:0:12}
    local log=$dir.build.log
    local maven=(mvn -B -q -Dstyle.color=never package -DskipTests -pl cli -am)
    if [ ! -f "$dir/cli/target/periscope.jar" ] || [ -z "$(periscope_generators_jar "$dir")" ]; then
        echo "building the anchor ${full:0:12} (log: $log)..." >&2
        rm -rf "$dir"
        mkdir -p "$dir"
        git -C "$root" archive "$full" | tar -x -C "$dir"
        if ! (cd "$dir" && "${maven[@]}" -o) >"$log" 2>&1 </dev/null; then
            if ! grep -q 'offline' "$log" || ! (cd "$dir" && "${maven[@]}") >"$log" 2>&1 </dev/null; then
                echo "the anchor's build failed (JDK: $JAVA_HOME); the end of $log:" >&2
                tail -n 60 "$log" >&2
                return 2
            fi
        fi
    fi
    echo "$dir/cli/target/periscope.jar:$(periscope_generators_jar "$dir")"
}
