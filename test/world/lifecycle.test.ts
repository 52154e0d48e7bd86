/**
 * The world's own commands (docs/world.md, "Bounded and reliable"): `up` leaves a world that
 * answers or none, naming the server that failed; `down` cannot hang on Postfix's logging;
 * `status` tells a stale world from a current one; `up` replaces a world started elsewhere.
 *
 * Every case starts worlds of its own, each inside a network namespace of its own
 * (scripts/world/isolated): the same fixed addresses are free there, so the world the other test
 * files use is never stopped or disturbed, and this file can run beside them in the normal suite.
 * Each case's shell script is bounded twice: `timeout` around the step it proves bounded (its exit
 * code is asserted: 124 means it overran), and spawnSync's timeout around the whole.
 */
import { spawn, spawnSync } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const repo = fileURLToPath(new URL("../../", import.meta.url))
const worlds = join(repo, "data")
// Directories of their own (keys and certificates are kept between runs, so later boots are quick).
const first = join(worlds, "world-lifecycle")
const second = join(worlds, "world-lifecycle-2")

/** Namespaces need root (CAP_SYS_ADMIN); so does the world itself. */
const canIsolate = spawnSync("unshare", ["--net", "true"]).status === 0

/**
 * Runs a bash script inside scripts/world/isolated; resolves with its output (stderr included).
 * Asynchronous, so the test worker keeps answering vitest while worlds boot.
 */
const isolated = (script: string, env: Record<string, string> = {}): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(join(repo, "scripts/world/isolated"), ["bash", "-c", `exec 2>&1\n${script}`], {
      cwd: repo,
      timeout: 240_000,
      env: { ...process.env, WORLD_DIR: first, ...env }
    })
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.on("error", reject)
    child.on("close", (code, signal) =>
      signal === null ? resolve(out) : reject(new Error(`ended by ${signal} (over 240 s):\n${out}`))
    )
  })

// The pid of the postlogd of WORLD_DIR's Postfix: a child of its master, in the master's group.
const POSTLOGD = `master=$(tr -dc 0-9 <"$WORLD_DIR/postfix/spool/pid/master.pid")
postlogd=""
for p in $(ps -o pid= -g "$master"); do [ "$(cat /proc/$p/comm 2>/dev/null)" = postlogd ] && postlogd=$p; done`

/**
 * `world_processes`: the sorted names of the long-lived server processes in this network namespace
 * (bash, the test's own shell, aside; Postfix's daemons other than its master come and go).
 */
const WORLD_PROCESSES = `world_processes() {
  local p comm names=()
  for p in /proc/[0-9]*; do
    [ "$p/ns/net" -ef /proc/$$/ns/net ] || continue
    read -r comm <"$p/comm" 2>/dev/null || continue
    case "$comm" in knotd | unbound | nginx | master | node) names+=("$comm") ;; esac
  done
  printf '%s\\n' "\${names[@]}" | sort | tr '\\n' ' ' | sed 's/ $//'
}`

describe.skipIf(!canIsolate)("world commands", () => {
  it("up fails, naming Postfix and its error, when Postfix rejects its config, and leaves no server running", async () => {
    const out = await isolated(
      `timeout 120 scripts/world/up; echo "up exit $?"; scripts/world/status; echo "status exit $?"`,
      {
        WORLD_POSTFIX_MAIN_CF: "default_process_limit = many"
      }
    )
    expect(out).toContain("world: postfix failed")
    expect(out).toContain("bad numerical configuration: default_process_limit = many")
    expect(out).toContain("world: starting postfix again, once")
    expect(out).toContain("up exit 1")
    expect(out).toMatch(/^knot +stopped$/m)
    expect(out).toContain("status exit 3")
  }, 300_000)

  it("up restarts a server that does not answer once, then gives up naming it", async () => {
    // Postfix starts, but with its inet services switched off no listener answers.
    const out = await isolated(
      `timeout 120 scripts/world/up; echo "up exit $?"; scripts/world/status >/dev/null; echo "status exit $?"`,
      {
        WORLD_POSTFIX_MAIN_CF: "master_service_disable = inet",
        WORLD_WAIT_MS: "3000"
      }
    )
    expect(out).toMatch(/world: not answering: postfix mx\.perfect\.com 127\.25\.0\.1/)
    expect(out).toContain("world: postfix does not answer; restarting it once")
    expect(out).toContain("world: postfix still does not answer after a restart")
    expect(out).toContain("up exit 1")
    expect(out).toContain("status exit 3")
  }, 300_000)

  it("down completes while Postfix's log daemon reads nothing (postfix stop hangs there)", async () => {
    const out = await isolated(`scripts/world/up >/dev/null; echo "up exit $?"
${POSTLOGD}
kill -STOP "$postlogd"
# Fill the log socket's queue: every later write to it blocks (unix_wait_for_peer). One sender's
# buffer holds fewer datagrams than the queue (up raises it to 1024), so senders are added until a
# new one cannot send its first.
python3 - "$WORLD_DIR/postfix/spool/public/postlog" <<'PY'
import socket, sys
senders = []
for _ in range(1000):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.connect(sys.argv[1])
    s.setblocking(False)
    senders.append(s)
    sent = 0
    try:
        while True:
            s.send(b"<22>postfix/world-test: filling the queue")
            sent += 1
    except BlockingIOError:
        pass
    if sent == 0:
        break
PY
timeout 5 postlog -c "$WORLD_DIR/postfix" -t world-test blocked; echo "postlog exit $?"
timeout 60 scripts/world/down; echo "down exit $?"
scripts/world/status >/dev/null; echo "status exit $?"`)
    expect(out).toContain("up exit 0")
    // The situation is real: anything that logs through the socket (postfix stop does) blocks.
    expect(out).toContain("postlog exit 124")
    expect(out).toContain("world: stopped postfix")
    expect(out).toContain("down exit 0")
    expect(out).toContain("status exit 3")
  }, 300_000)

  it("a stale world is reported as such, another world's up replaces it, and down completes without Postfix's log socket", async () => {
    const out = await isolated(`trap 'WORLD_DIR="${second}" scripts/world/down >/dev/null' EXIT
scripts/world/up >/dev/null; echo "up exit $?"
scripts/world/status >/dev/null; echo "fresh status exit $?"
# As if scripts/world had changed since this world was built.
sed -i 's/^WORLD_CODE=.*/WORLD_CODE=0000000000000000/' "$WORLD_DIR/origin.env"
scripts/world/status | tail -3; echo "stale status exit \${PIPESTATUS[0]}"
WORLD_DIR="${second}" timeout 120 scripts/world/up; echo "second up exit $?"
scripts/world/status >/dev/null; echo "first status exit $?"
export WORLD_DIR="${second}"
rm "$WORLD_DIR/postfix/spool/public/postlog"
timeout 60 scripts/world/down; echo "down exit $?"
scripts/world/status >/dev/null; echo "second status exit $?"`)
    expect(out).toContain("up exit 0")
    expect(out).toContain("fresh status exit 0")
    expect(out).toContain("running but stale")
    expect(out).toContain("stale status exit 5")
    expect(out).toContain(`world: the world in ${first} is running but stale; stopping it`)
    expect(out).toContain("second up exit 0")
    expect(out).toContain("first status exit 3")
    expect(out).toContain("down exit 0")
    expect(out).toContain("second status exit 3")
  }, 300_000)

  it("two ups started at once leave one world: the second waits for the first and finds it up; a down waits for an up", async () => {
    const out = await isolated(`${WORLD_PROCESSES}
scripts/world/up >"$TMPDIR/first.log" 2>&1 & first=$!
scripts/world/up >"$TMPDIR/second.log" 2>&1 & second=$!
wait "$first"; echo "first up exit $?"
wait "$second"; echo "second up exit $?"
grep -h '^world: waiting\\|^world: up' "$TMPDIR/first.log" "$TMPDIR/second.log"
scripts/world/status >/dev/null; echo "status exit $?"
flock -n "$TMPDIR/domain-audit-world.lock" true; echo "lock free exit $?"
echo "servers: $(world_processes)"
# A down while an up boots: it waits for the up, then stops what that up started.
scripts/world/up >"$TMPDIR/third.log" 2>&1 & third=$!
for i in $(seq 1 100); do flock -n "$TMPDIR/domain-audit-world.lock" true || break; sleep 0.1; done
timeout 180 scripts/world/down >"$TMPDIR/down.log" 2>&1; echo "down exit $?"
wait "$third"; echo "third up exit $?"
grep -h '^world: waiting' "$TMPDIR/down.log" | sed 's/^/down: /'
echo "left after down: $(world_processes)"
scripts/world/status >/dev/null; echo "final status exit $?"`)
    expect(out).toContain("first up exit 0")
    expect(out).toContain("second up exit 0")
    expect(out).toMatch(/^world: waiting for up \(pid \d+, .*\) to finish$/m)
    expect(out).toContain("world: up, started by the up this one waited for;")
    expect(out).toContain("status exit 0")
    // No server inherited the lock: it ended with the ups.
    expect(out).toContain("lock free exit 0")
    // One set: two Knots (knot, knot-lag), three Unbounds, one nginx master and worker, one
    // Postfix master, the slow, RDAP and esmtp servers (node).
    expect(out).toMatch(/^servers: knotd knotd master nginx nginx node node node unbound unbound unbound$/m)
    expect(out).toContain("down exit 0")
    expect(out).toContain("third up exit 0")
    expect(out).toMatch(/^down: world: waiting for up \(pid \d+, .*\) to finish$/m)
    expect(out).toMatch(/^left after down: $/m)
    expect(out).toContain("final status exit 3")
  }, 300_000)
})
