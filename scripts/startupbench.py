#!/usr/bin/env python3
"""Server start-up probe (issue 4: "all rule sets loaded: start-up under 300 ms").

usage: scripts/startupbench.py N BINARY [BINARY...]   (SHARED=../shared, PAUSE=0.3 by default)

Starts `BINARY serve` N times per binary, the binaries alternating so that each row shares the
machine's load, and for each start records:
  - the wall time from exec to the "rule sets and schemas compiled" log line (its timestamp);
  - the process's CPU ticks (utime+stime), system ticks and minor page faults at that moment
    (/proc/PID/stat).
  - how long its threads waited for a CPU, runnable but not running (run delay, the second field
    of /proc/PID/task/*/schedstat, summed), and the machine's CPU steal over the start
    (/proc/stat: the share of the host's time the hypervisor gave to other guests). Both stretch
    the wall time of a start without changing its CPU time: other processes of this machine show
    in the first, other guests of the host in the second.
Nothing polls the server over HTTP meanwhile: a curl loop takes CPU from the warm-up it measures.
PAUSE seconds pass between two starts: the killed server's memory goes back to the kernel, and
its exit does not overlap the next start.
Prints, per binary, the median and range of each figure, and the median wall time of the starts
with steal under 5 %. The run delay is shown, not filtered on: on two cores the warm-up's own
goroutines and the collector's workers queue for a core too (53-357 ms, median 103, in 20 starts on
an idle machine), so a run delay alone does not mark a start as disturbed; it is context.
"""
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def host_cpu():
    """Total and steal ticks of the machine so far (the "cpu" line of /proc/stat)."""
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:9]  # user nice system idle iowait irq softirq steal
    ticks = [int(x) for x in fields]
    return sum(ticks), ticks[7]


def run_delay(pid):
    """Milliseconds the process's threads have waited on a run queue so far."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[1])
        except (OSError, IndexError, ValueError):
            pass  # a thread that ended meanwhile
    return total / 1e6


def start(binary, shared):
    d = tempfile.mkdtemp()
    cpu0 = host_cpu()
    port = 20000 + random.randint(0, 9999)
    logpath = os.path.join(d, "log")
    with open(logpath, "w") as log:
        t0 = time.time()
        p = subprocess.Popen([binary, "serve", "--addr", "127.0.0.1:%d" % port, "--data-dir", d,
                              "--shared", shared], stdout=log, stderr=log)
    stat = None
    try:
        while time.time() - t0 < 10:
            time.sleep(0.005)
            with open(logpath) as f:
                if "schemas compiled" in f.read():
                    with open("/proc/%d/stat" % p.pid) as sf:
                        fields = sf.read().rsplit(")", 1)[1].split()
                    # after the comm field: [7] minflt, [11] utime, [12] stime
                    stat = (int(fields[11]) + int(fields[12]), int(fields[12]), int(fields[7]), run_delay(p.pid))
                    break
    finally:
        p.kill()
        p.wait()
    if stat is None:
        sys.exit("%s: no 'schemas compiled' line within 10 s (see %s)" % (binary, logpath))
    cpu1 = host_cpu()
    steal = 100.0 * (cpu1[1] - cpu0[1]) / max(1, cpu1[0] - cpu0[0])
    with open(logpath) as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if "schemas compiled" in rec.get("msg", ""):
                ts = datetime.datetime.fromisoformat(rec["time"].replace("Z", "+00:00")).timestamp()
                return (ts - t0) * 1000, stat, steal
    sys.exit("%s: the log line has no timestamp" % binary)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    n, binaries = int(sys.argv[1]), sys.argv[2:]
    shared = os.environ.get("SHARED", "../shared")
    pause = float(os.environ.get("PAUSE", "0.3"))
    rows = {b: [] for b in binaries}
    for _ in range(n):
        for b in binaries:
            rows[b].append(start(b, shared))
            time.sleep(pause)
    for b in binaries:
        ms = [r[0] for r in rows[b]]
        cpu = [r[1][0] for r in rows[b]]
        sys_ = [r[1][1] for r in rows[b]]
        flt = [r[1][2] for r in rows[b]]
        delay = [r[1][3] for r in rows[b]]
        steal = [r[2] for r in rows[b]]
        print("%s: compiled after %.0f ms median (%.0f-%.0f); CPU %.1f ticks (%d-%d), of which system %.1f;"
              " %d minor faults; run delay %.0f ms median (%.0f-%.0f); steal %.0f %% median (%.0f-%.0f); n=%d" % (
                  b, statistics.median(ms), min(ms), max(ms), statistics.median(cpu), min(cpu), max(cpu),
                  statistics.median(sys_), statistics.median(flt), statistics.median(delay), min(delay),
                  max(delay), statistics.median(steal), min(steal), max(steal), n))
        quiet = [r[0] for r in rows[b] if r[2] < 5]
        if quiet:
            print("%s: starts with steal under 5 %%: compiled after %.0f ms median (%.0f-%.0f), n=%d" % (
                b, statistics.median(quiet), min(quiet), max(quiet), len(quiet)))
        else:
            print("%s: no start with steal under 5 %%" % b)


if __name__ == "__main__":
    main()
