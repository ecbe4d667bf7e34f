"""The memory of a command's whole process tree while it runs (docs/benchmarks.md, "The first make
run"): every 0.5 s the summed RSS and PSS of the command and all its descendants, from
/proc/<pid>/smaps_rollup (Linux); the peak, and the peak of each step (named by the tree's biggest
process). The command's output is echoed with the seconds since the start; the tree is stopped when a
line matches PATTERN, or after TIMEOUT seconds. Summed RSS counts shared pages once per process; PSS
shares them out, so its sum is the tree's real footprint.

    python bench/first_run.py "game math warmed in" 2400 make run PORT=8124
"""

import os
import re
import signal
import subprocess
import sys
import threading
import time


def children() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        parent = int(text[text.rfind(")") + 2 :].split()[1])
        found.setdefault(parent, []).append(int(name))
    return found


def tree(root: int) -> list[int]:
    kids, out = children(), [root]
    for pid in out:
        out += kids.get(pid, [])
    return out


def memory(pid: int) -> tuple[int, int, str]:
    """(RSS kB, PSS kB, command line) of a process; zeros when it is gone."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            command = cmdline.read().replace(b"\0", b" ").decode()[:80]
    except OSError:
        return 0, 0, ""
    return rss, pss, command


def main(pattern: str, timeout: float, command: list[str]) -> None:
    stop, start = re.compile(pattern), time.time()
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True, text=True
    )
    done = threading.Event()

    def echo():
        for line in proc.stdout:
            sys.stdout.write(f"[{time.time() - start:6.1f}s] {line}")
            sys.stdout.flush()
            if stop.search(line):
                done.set()
        done.set()

    threading.Thread(target=echo, daemon=True).start()
    peak_rss = peak_pss = 0
    steps: dict[str, tuple[int, int]] = {}
    while not done.is_set() and time.time() - start < timeout:
        rows = [memory(pid) for pid in tree(proc.pid)]
        rss, pss = sum(r[0] for r in rows), sum(r[1] for r in rows)
        step = max(rows, key=lambda r: r[1])[2][:60]
        steps[step] = max(steps.get(step, (0, 0)), (pss, rss))
        peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
        time.sleep(0.5)
    took = time.time() - start
    os.killpg(proc.pid, signal.SIGTERM)
    time.sleep(2)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    print(f"\n=== wall {took:.1f} s, peak of the tree: RSS {peak_rss / 1024:.0f} MiB, PSS {peak_pss / 1024:.0f} MiB")
    for step, (pss, rss) in sorted(steps.items(), key=lambda kv: -kv[1][0])[:12]:
        print(f"   PSS {pss / 1024:6.0f} MiB  RSS {rss / 1024:6.0f} MiB  while the biggest was: {step}")
    with open("/proc/loadavg") as load:
        print("load average", load.read().strip())


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), sys.argv[3:])
