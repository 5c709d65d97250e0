# bench/lib.sh: what bench/run, bench/road and bench/large-delete share, sourced by them once their
# knobs are set (ROOT, BENCH, BENCH_REBUILD, BENCH_SERVER_OPTS, BENCH_GENERATOR_OPTS and log).
# Builds what is missing, starts a redis-server on a free loopback port (REDIS_PORT, REDIS_PID) and
# the keys of the demo login in WORK, stops every process it or its caller started on exit (PIDS),
# and defines gen (the load generator), ready and start_node. NODE_JAVA_OPTS: more JVM options of
# the next node.
# shellcheck shell=bash

# --- builds ----------------------------------------------------------------------------------------
SERVER_JAR="$ROOT/target/quarkus-app/quarkus-run.jar"
GENERATOR_JAR="$BENCH/target/editlock-bench.jar"
server_jar_ok() {
  local app
  app=$(ls "$ROOT"/target/quarkus-app/app/editlock-*.jar 2>/dev/null | head -1)
  [ -f "$SERVER_JAR" ] && [ -n "$app" ] || return 1
  jar tf "$app" | grep -q 'io/editlock/bench/echo/BenchEchoSocket.class' || return 1
  [ -z "$(find "$ROOT/src/main" "$ROOT/bench/echo" "$ROOT/pom.xml" "$ROOT/frontend-demo" -type f -newer "$app" \
      -not -path '*/node_modules/*' -not -path '*/e2e/*' -not -path '*/test/*' 2>/dev/null | head -1)" ]
}
generator_ok() {
  [ -f "$GENERATOR_JAR" ] && [ -z "$(find "$BENCH/src" "$BENCH/pom.xml" -type f -newer "$GENERATOR_JAR" | head -1)" ]
}
if [ "$BENCH_REBUILD" = 1 ] || ! server_jar_ok; then
  log "building the server with -Pbench (adds /bench/echo): ./mvnw -q -Pbench package -DskipTests"
  (cd "$ROOT" && ./mvnw -q -B -Pbench package -DskipTests)
fi
if [ "$BENCH_REBUILD" = 1 ] || ! generator_ok; then
  log "building the load generator: ./mvnw -q -f bench/pom.xml package"
  (cd "$ROOT" && ./mvnw -q -B -f bench/pom.xml package)
fi

# --- processes we start, and stop on exit ----------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/editlock-bench.XXXXXX")
PIDS=()
stop_pid() {
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
}
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -n "${GEN_PID:-}" ]; then kill "$GEN_PID" 2>/dev/null || true; fi
  # Last started first (server nodes before their Redis), each gone before the next is asked to stop.
  for (( i=${#PIDS[@]}-1; i>=0; i-- )); do
    stop_pid "${PIDS[$i]}"
  done
  if [ "$status" -ne 0 ] && [ -d "$WORK" ]; then
    for f in "$WORK"/*.log; do [ -f "$f" ] && { echo "--- last lines of $f"; tail -n 40 "$f"; }; done
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A port nothing listens on, outside the usual ephemeral range.
free_port() {
  local port
  for _ in $(seq 1 200); do
    port=$(( 20000 + RANDOM % 12000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  echo "bench/run: no free port found" >&2; return 1
}

REDIS_PORT=$(free_port)
log "redis-server $(redis-server --version | awk '{print $3}' | sed 's/v=//') on 127.0.0.1:$REDIS_PORT"
redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no --dir "$WORK" \
  --logfile "$WORK/redis.log" --daemonize no &
PIDS+=($!)
REDIS_PID=$!
for _ in $(seq 1 100); do
  [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ] && break
  kill -0 "$REDIS_PID" 2>/dev/null || { echo "bench/run: redis-server exited" >&2; exit 1; }
  sleep 0.1
done

# The load generator, in the background so that a signal reaches the trap at once (which stops it).
GEN_PID=
gen() {
  # shellcheck disable=SC2086
  java $BENCH_GENERATOR_OPTS -jar "$GENERATOR_JAR" "$@" &
  GEN_PID=$!
  wait "$GEN_PID"
  GEN_PID=
}
gen keys --dir "$WORK"

# ready PORT: GET /q/health/ready answers 200 (plain bash, no HTTP client needed).
ready() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'GET /q/health/ready HTTP/1.0\r\nHost: 127.0.0.1:%s\r\n\r\n' "$1" >&3
    IFS= read -r -t 5 status <&3 || exit 1
    case "$status" in *" 200 "*) exit 0 ;; *) exit 1 ;; esac
  ) 2>/dev/null
}

# start_node NAME: starts a server node on a free port, waits until ready; sets NODE_PORT, NODE_PID.
start_node() {
  local name=$1 port pid
  port=$(free_port)
  # shellcheck disable=SC2086
  java $BENCH_SERVER_OPTS ${NODE_JAVA_OPTS:-} \
    -Dquarkus.http.host=127.0.0.1 \
    -Dquarkus.http.port="$port" \
    -Dquarkus.redis.hosts="redis://127.0.0.1:$REDIS_PORT" \
    -Deditlock.demo-login.enabled=true \
    -Deditlock.rate-limit.lock-requests-per-second=1000000 \
    -Deditlock.limits.frames-per-second=1000000 \
    -Deditlock.limits.rest.writes-per-second=1000000 \
    -Deditlock.limits.rest.items-per-configurator=1000000 \
    -Deditlock.limits.locks-per-user-per-configurator=1000000 \
    -Deditlock.socketio.max-unconnected-sessions=1000000 \
    -Deditlock.socketio.max-unconnected-sessions-per-address=1000000 \
    -Dmp.jwt.verify.publickey.location="$WORK/jwt-public.pem" \
    -Dsmallrye.jwt.sign.key.location="$WORK/jwt-private.pem" \
    -jar "$SERVER_JAR" >"$WORK/server-$name.log" 2>&1 &
  pid=$!
  PIDS+=("$pid")
  for _ in $(seq 1 600); do
    if ready "$port"; then
      NODE_PORT=$port; NODE_PID=$pid
      log "server node $name on 127.0.0.1:$port (pid $pid)"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || { echo "bench/run: server node $name exited at start" >&2; exit 1; }
    sleep 0.2
  done
  echo "bench/run: server node $name not ready after 120 s" >&2; exit 1
}

