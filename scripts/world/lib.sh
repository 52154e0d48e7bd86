# Shared by scripts/world/{up,down,status,soak,isolated,mutate}: paths, pid-file based process control and
# time-limited steps. Processes are only ever found through the pid files under data/world (never
# by name).
WORLD_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$WORLD_SCRIPTS/../.." && pwd)"
WORLD="${WORLD_DIR:-$REPO/data/world}"
# `up` writes the path of the running world's world.env here (one world per machine, or per network
# namespace: scripts/world/isolated gives each its own TMPDIR).
WORLD_POINTER="${TMPDIR:-/tmp}/domain-audit-world.path"
# Held by `up` and `down` while they run (world_lock), beside the pointer file: one at a time per
# machine, as the addresses are.
WORLD_LOCK="${TMPDIR:-/tmp}/domain-audit-world.lock"

# name|pidfile|expected program (checked against /proc/PID/exe so a reused pid is never killed)
world_components() {
  cat <<EOT
knot|$WORLD/dns/knot.pid|knotd
knot-lag|$WORLD/dns-lag/knot.pid|knotd
unbound|$WORLD/unbound/unbound.pid|unbound
unbound-propagation|$WORLD/unbound-propagation/unbound.pid|unbound
unbound-lag|$WORLD/unbound-lag/unbound.pid|unbound
nginx|$WORLD/nginx/nginx.pid|nginx
postfix|$WORLD/postfix/spool/pid/master.pid|master
slow|$WORLD/slow.pid|node
rdap|$WORLD/rdap.pid|node
esmtp|$WORLD/esmtp.pid|node
pq|$WORLD/pq.pid|node
EOT
}

# component_pid NAME: the pid of world server NAME, if it runs.
component_pid() {
  local name file prog
  while IFS='|' read -r name file prog; do
    [ "$name" = "$1" ] || continue
    live_pid "$file" "$prog"
    return
  done < <(world_components)
  return 1
}

# The server's own log: what a failure report shows the last lines of.
component_log() {
  case "$1" in
  knot) echo "$WORLD/dns/knot.log" ;;
  knot-lag) echo "$WORLD/dns-lag/knot.log" ;;
  unbound*) echo "$WORLD/$1/unbound.log" ;;
  nginx) echo "$WORLD/nginx/logs/error.log" ;;
  postfix) echo "$WORLD/postfix/log/postfix.log" ;;
  slow) echo "$WORLD/slow.log" ;;
  rdap) echo "$WORLD/rdap.log" ;;
  esmtp) echo "$WORLD/esmtp.log" ;;
  pq) echo "$WORLD/pq.log" ;;
  esac
}

# --- time limits ---------------------------------------------------------------------------------
# Every step of every world command runs under a time limit, so no command can hang: a step that
# overruns is ended by `timeout` (which signals its own child by pid, never a name) and reported by
# name with the last lines of the server's own log. WORLD_TIME_SCALE multiplies every limit (a
# slower machine); WORLD_LOG_LINES sets how many log lines a report shows.

# seconds BASE: BASE scaled by WORLD_TIME_SCALE (an integer).
seconds() { echo $(($1 * ${WORLD_TIME_SCALE:-1})); }

# log_tail LOG...: the last lines of each LOG (those that exist and are not empty) on stderr.
log_tail() {
  local log
  for log in "$@"; do
    [ -n "$log" ] && [ -s "$log" ] || continue
    echo "world:   last lines of $log:" >&2
    tail -n "${WORLD_LOG_LINES:-12}" "$log" 2>/dev/null | sed 's/^/world:     /' >&2
  done
}

# step NAME SECONDS LOGS COMMAND...: run COMMAND with a time limit of SECONDS (scaled). On overrun
# or failure, name the step, show the last lines of LOGS (space-separated paths, may be empty) and
# return non-zero (124 for an overrun). COMMAND must be a program, not a shell function.
step() {
  local name="$1" limit rc=0
  limit="$(seconds "$2")"
  local log="$3"
  shift 3
  timeout --kill-after=3 "$limit" "$@" || rc=$?
  case "$rc" in
  0) return 0 ;;
  124 | 137)
    echo "world: $name did not finish within ${limit}s and was ended" >&2
    rc=124
    ;;
  *) echo "world: $name failed (exit $rc)" >&2 ;;
  esac
  # shellcheck disable=SC2086 # LOGS is a list
  log_tail $log
  return "$rc"
}

# --- Postfix -------------------------------------------------------------------------------------
# start_postfix: start the world's Postfix (its master daemonises; its pid file names it).
start_postfix() {
  timeout "$(seconds 30)" postfix -c "$WORLD/postfix" set-permissions >/dev/null 2>&1 || true
  # Postfix commands write their messages (a rejected config) to stderr only when it is a
  # terminal, so `script` gives them one, recorded in start.log; the daemons log to postfix.log.
  step postfix 60 "$WORLD/postfix/start.log $(component_log postfix)" \
    sh -c 'exec script -qec "postfix -c $1 start" /dev/null >"$1/start.log" 2>&1' sh "$WORLD/postfix"
}

# Postfix's daemons, its master included, log by datagrams to postlogd, which the master starts
# and every reload restarts. Linux queues at most net.unix.max_dgram_qlen datagrams for a reader
# (10 where nothing raised it, 512 under systemd): with postlogd gone for a moment, a burst of
# smtpd lines fills the queue, the master blocks writing its own line and can no longer start the
# postlogd that would drain it. Sockets take the limit when they are made, so this runs before
# Postfix starts; it applies to the network namespace the world runs in.
raise_dgram_queue() {
  local want=1024 now
  now="$(cat /proc/sys/net/unix/max_dgram_qlen 2>/dev/null)" || return 0
  [ "${now:-0}" -ge "$want" ] && return 0
  echo "$want" >/proc/sys/net/unix/max_dgram_qlen 2>/dev/null ||
    echo "world: could not raise net.unix.max_dgram_qlen from $now (Postfix may stall on its log under load)" >&2
}

# --- freshness -----------------------------------------------------------------------------------
# A world is stale when the code that built it differs from this checkout's: the fingerprint of
# every file of scripts/world except the commands that only observe, stop or change a running world
# (mutate changes one domain, recorded in $WORLD/mutations.json). `up` writes it, with where the
# world came from, to $WORLD/origin.env; `status` compares.
code_fingerprint() {
  (cd "$WORLD_SCRIPTS" && find . -type f ! -name status ! -name down ! -name soak ! -name isolated \
    ! -name mutate ! -name mutate.mjs -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
}

# --- one up or down at a time --------------------------------------------------------------------
# Two `up`s at once (a test run's globalSetup starting the world while a person's `up` boots it) each
# stopped what the other had started and overwrote its pid files, leaving servers no pid file named.
# world_lock WHAT holds an flock(1) lock on WORLD_LOCK through fd 9 until the script exits (the
# kernel drops it however the script ends), waiting up to 20 minutes for the holder, whose WHAT,
# pid and world are written in the file. A `down` run by the `up` holding the lock (exported
# WORLD_LOCK_HELD) proceeds under it. Servers must not inherit fd 9, or the lock would outlive
# `up`: start_component closes it. Sets WORLD_LOCK_WAITED=1 when another command held the lock.
WORLD_LOCK_WAITED=0
world_lock() {
  [ "${WORLD_LOCK_HELD:-}" = "$WORLD_LOCK" ] && return 0
  [ -e "$WORLD_LOCK" ] || : >>"$WORLD_LOCK"
  exec 9<"$WORLD_LOCK"
  if ! flock -n 9; then
    local holder
    holder="$(cat "$WORLD_LOCK" 2>/dev/null)"
    echo "world: waiting for ${holder:-another up or down} to finish" >&2
    if ! flock -w "$(seconds 1200)" 9; then
      echo "world: ${holder:-another up or down} still holds $WORLD_LOCK after $(seconds 1200)s; giving up" >&2
      exit 1
    fi
    WORLD_LOCK_WAITED=1
  fi
  echo "$1 (pid $$, $WORLD)" >"$WORLD_LOCK" 2>/dev/null || true
  export WORLD_LOCK_HELD="$WORLD_LOCK"
}

# --- processes -----------------------------------------------------------------------------------

# Prints the pid if the pid file names a live process running the expected program.
live_pid() {
  local file="$1" prog="$2" pid exe
  [ -f "$file" ] || return 1
  pid="$(tr -dc '0-9' <"$file")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  exited "$pid" && return 1
  exe="$(readlink "/proc/$pid/exe" 2>/dev/null || true)"
  case "$exe" in
  */"$prog" | */"$prog"[0-9]* | *"/$prog (deleted)") echo "$pid" ;;
  *) return 1 ;;
  esac
}

exited() {
  grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null && grep -q '^Threads:[[:space:]]*1$' "/proc/$1/status" 2>/dev/null
}

# stop_pid PID: TERM, then KILL after 5 s. Bounded: it never waits on the process's cooperation.
stop_pid() {
  local pid="$1" i
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    # An exited daemon stays a zombie until init reaps it: that counts as stopped once no thread
    # is left (a leader thread turns zombie while its other threads still hold the sockets).
    exited "$pid" && return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

# group_alive PGID: whether a process other than a zombie is still in process group PGID.
group_alive() {
  local want="$1" stat line
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$stat" || continue
    # After the command name: state ppid pgrp ...
    set -- ${line##*) }
    [ "${3:-}" = "$want" ] && [ "$1" != Z ] && return 0
  done
  return 1
}

# stop_group PID: stop a daemon that leads its own process group (Postfix's master: it starts
# every Postfix daemon in its group). The master's children inherit its listening sockets and may
# outlive it for a moment; a new master binding the same addresses would then fail ("Address
# already in use"), so this waits until the whole group is gone, killing what is left after 5 s.
stop_group() {
  local pid="$1" i
  stop_pid "$pid"
  for i in $(seq 1 50); do
    group_alive "$pid" || return 0
    [ "$i" = 1 ] && kill -TERM -- "-$pid" 2>/dev/null
    sleep 0.1
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  for i in $(seq 1 20); do
    group_alive "$pid" || return 0
    sleep 0.1
  done
  echo "world: processes of group $pid outlived SIGKILL" >&2
  return 1
}
