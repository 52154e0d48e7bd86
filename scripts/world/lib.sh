# Shared by scripts/world/{up,down,status}: paths and pid-file based process control.
# Processes are only ever found through the pid files under data/world (never by name).
WORLD_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$WORLD_SCRIPTS/../.." && pwd)"
WORLD="${WORLD_DIR:-$REPO/data/world}"

# name|pidfile|expected program (checked against /proc/PID/exe so a reused pid is never killed)
world_components() {
  cat <<EOF
knot|$WORLD/dns/knot.pid|knotd
knot-lag|$WORLD/dns-lag/knot.pid|knotd
unbound|$WORLD/unbound/unbound.pid|unbound
unbound-propagation|$WORLD/unbound-propagation/unbound.pid|unbound
unbound-lag|$WORLD/unbound-lag/unbound.pid|unbound
nginx|$WORLD/nginx/nginx.pid|nginx
postfix|$WORLD/postfix/spool/pid/master.pid|master
slow|$WORLD/slow.pid|node
EOF
}

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
