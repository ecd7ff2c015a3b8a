#!/usr/bin/env python3
"""Probes `rwb serve` as an attacker and as a clumsy client would, on loopback only, and
prints a table of what held: the probes of issue 38, repeated. Standard library only.

    scripts/probe-serve.py [--rwb build/app/rwb/rwb] [--markdown] [--quick]

It starts `rwb serve --reward-config tests/data/cli_config.json --store <tmp>` on a free
port (no model needed: the reward routes), watches the server's RSS (/proc) and asks
/health every 0.2 s throughout (each must answer within 1 s), runs each probe, and
checks after each that the server still answers. Every probe is bounded in time and
memory on the client side. Exit 0 when every probe held, 1 when one did not (the table
says which), 2 when the server could not be started.

--quick shortens the slow-client probe (5 s instead of 20) for a smoke run.
"""
import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(ROOT, "tests", "data", "cli_config.json")
DATA = os.path.join(ROOT, "tests", "data", "cli_input.jsonl")
GOOD = json.dumps({"query": ["株式会社みどり製作所", "x"], "prompts": ["", ""], "labels": ["c1", "c2"]})


class Server:
    """rwb serve on a free port, its RSS and its /health watched from threads."""

    def __init__(self, rwb, store):
        self.proc = subprocess.Popen(
            [rwb, "serve", "--reward-config", CONFIG, "--reward-data", DATA, "--store", store, "--port", "0",
             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("rwb serve did not start: " + self.proc.stderr.read()[-2000:])
        url = json.loads(line)["url"]
        self.port = int(url.split(":")[2].split("/")[0])
        self.rss_peak_mb = 0.0
        self.health_worst = 0.0
        self.health_failures = 0
        self._stop = False
        self._threads = [threading.Thread(target=self._watch_rss, daemon=True),
                         threading.Thread(target=self._watch_health, daemon=True)]
        for t in self._threads:
            t.start()

    def rss_mb(self):
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024.0
        except OSError:
            pass
        return 0.0

    def _watch_rss(self):
        while not self._stop:
            self.rss_peak_mb = max(self.rss_peak_mb, self.rss_mb())
            time.sleep(0.1)

    def _watch_health(self):
        while not self._stop:
            start = time.monotonic()
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1.0)
                c.request("GET", "/health")
                ok = c.getresponse().status == 200
                c.close()
            except OSError:
                ok = False
            took = time.monotonic() - start
            if self.proc.poll() is None:
                self.health_worst = max(self.health_worst, took)
                if not ok or took > 1.0:
                    self.health_failures += 1
            time.sleep(0.2)

    def reset_watch(self):
        self.rss_peak_mb = self.rss_mb()
        self.health_worst = 0.0
        self.health_failures = 0

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM):
        self._stop = True
        if self.alive():
            self.proc.send_signal(sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def post(port, path, body, headers=None, timeout=30):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    c.request("POST", path, body=body.encode() if isinstance(body, str) else body, headers=h)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


def raw(port, payload, read_timeout=10):
    """Sends bytes (an iterable of chunks), stops sending once an answer arrives; the
    answer's status line, or what happened."""
    s = socket.create_connection(("127.0.0.1", port), timeout=read_timeout)
    s.setblocking(True)
    answer = b""
    try:
        for chunk in payload:
            s.settimeout(0.0)
            try:
                answer = s.recv(4096)
                if answer:
                    break
            except (BlockingIOError, socket.timeout):
                pass
            except OSError:
                break
            s.settimeout(read_timeout)
            try:
                s.sendall(chunk)
            except OSError:
                break
        if not answer:
            s.settimeout(read_timeout)
            answer = s.recv(4096)
    except OSError as e:
        return "no answer (%s)" % e.__class__.__name__
    finally:
        s.close()
    return answer.split(b"\r\n", 1)[0].decode("latin-1") if answer else "connection closed, no answer"


def deep(n):
    return "[" * n + "]" * n


def probes(quick):
    """(name, expected, function(server) -> (held, what was seen))."""

    def deep_route(path, body):
        def run(s):
            status, data = post(s.port, path, body)
            return status == 400 and b"deeper than" in data, "%d %s" % (status, data[:80].decode(errors="replace"))
        return run

    d = deep(100_000)
    out = [
        ("deep label, OpenRLHF /reward (100,000 levels)", "400",
         deep_route("/reward", '{"query": ["a"], "prompts": [""], "labels": [%s]}' % d)),
        ("deep ground_truths, verl /reward/verl", "400",
         deep_route("/reward/verl", '{"solution_strs": ["a"], "ground_truths": [%s]}' % d)),
        ("deep extra_info, verl /reward/verl", "400",
         deep_route("/reward/verl", '{"solution_strs": ["a"], "ground_truths": ["c1"], "extra_infos": [%s]}' % d)),
        ("deep dataset column, TRL /reward/trl", "400",
         deep_route("/reward/trl", '{"prompts": ["q"], "completions": ["a"], "id": ["c1"], "x": [%s]}' % d)),
    ]

    def chunked(s):
        head = (b"POST /reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n")
        block = b"100000\r\n" + b"[" * 0x100000 + b"\r\n"
        line = raw(s.port, [head] + [block] * 300)  # up to 300 MB, stopped at the answer
        return line.startswith("HTTP/1.1 411"), line
    out.append(("chunked body of 300 MB, no Content-Length", "411 before the body is read", chunked))

    def headers(s):
        head = b"POST /reward HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(
            b"X-H%d: v\r\n" % i for i in range(100_000)) + b"Content-Length: 2\r\n\r\n{}"
        line = raw(s.port, [head])
        return line.startswith("HTTP/1.1 431") or line.startswith("HTTP/1.1 400"), line
    out.append(("100,000 headers", "431 (or 400), RSS bounded", headers))

    def request_line(s):
        before = s.rss_mb()
        results = []
        threads = []
        def one():
            results.append(raw(s.port, [b"GET /" + b"a" * (1 << 20)] * 100, read_timeout=5))
        for _ in range(4):
            t = threading.Thread(target=one)
            t.start()
            threads.append(t)
        for t in threads:
            t.join()
        grown = s.rss_peak_mb - before
        return grown < 100, "%s; RSS grew %.0f MB" % ("; ".join(sorted(set(results))), grown)
    out.append(("4 request lines of 100 MB, no newline", "refused, RSS grows < 100 MB", request_line))

    def rebinding(s):
        a, _ = post(s.port, "/reward", GOOD, {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"})
        b, _ = post(s.port, "/reward", GOOD, {"Origin": "http://evil.example"})
        c, _ = post(s.port, "/reward", GOOD)
        return (a, b, c) == (403, 403, 200), "rebound name %d, web page %d, plain client %d" % (a, b, c)
    out.append(("DNS rebinding and a web page's POST (no key)", "403, 403; a plain client 200", rebinding))

    def slow_clients(s):
        seconds = 5 if quick else 20
        socks = []
        for _ in range(200):
            try:
                k = socket.create_connection(("127.0.0.1", s.port), timeout=2)
                k.sendall(b"P")
                socks.append(k)
            except OSError:
                break
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for k in socks:
                try:
                    k.sendall(b"O")
                except OSError:
                    pass
            time.sleep(1.0)
        for k in socks:
            k.close()
        return s.health_failures == 0, "%d sockets sending a byte a second for %d s: /health worst %.2f s, %d late or failed" % (
            len(socks), seconds, s.health_worst, s.health_failures)
    out.append(("200 slow clients (one byte a second)", "/health within 1 s throughout", slow_clients))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rwb", default=os.path.join(ROOT, "build", "app", "rwb", "rwb"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rwb-probe-")
    store = os.path.join(tmp, "s.sqlite")
    try:
        s = Server(args.rwb, store)
    except Exception as e:  # noqa: BLE001 - any failure to start is reported as such
        print("probe-serve: %s" % e, file=sys.stderr)
        return 2
    rows = []
    all_held = True
    for name, expected, run in probes(args.quick):
        s.reset_watch()
        try:
            held, seen = run(s)
        except Exception as e:  # noqa: BLE001 - a probe that breaks the client is a result too
            held, seen = False, "probe failed: %r" % e
        time.sleep(0.5)
        alive = s.alive()
        try:
            after, _ = post(s.port, "/reward", GOOD) if alive else (0, b"")
        except OSError:
            after = 0
        held = held and alive and after == 200
        all_held &= held
        rows.append((name, expected, seen, "%.0f" % s.rss_peak_mb, "%.2f" % s.health_worst,
                     "yes" if alive and after == 200 else "NO", "held" if held else "NOT HELD"))
        if not alive:
            break

    # Answered rollouts survive SIGKILL; the next server recovers them.
    s.reset_watch()
    status, _ = post(s.port, "/reward", GOOD)
    s.stop(signal.SIGKILL)
    pending = [f for f in os.listdir(tmp) if ".pending-run" in f]
    s2 = Server(args.rwb, store)
    code = s2.stop(signal.SIGTERM)
    con = __import__("sqlite3").connect(store)
    failed = con.execute("SELECT count(*) FROM runs WHERE status = 'failed' AND message LIKE '%recovered%'").fetchone()[0]
    rollouts = con.execute("SELECT count(*) FROM rollouts").fetchone()[0]
    running = con.execute("SELECT count(*) FROM runs WHERE status = 'running'").fetchone()[0]
    con.close()
    held = status == 200 and len(pending) == 1 and failed == 1 and rollouts >= 2 and running == 0 and code == 0
    all_held &= held
    rows.append(("SIGKILL after answering, then a new server (--store)", "answered rollouts recovered; SIGTERM exits 0",
                 "answered %d; pending file %s; run failed with recovery %d; rollouts in store %d; runs left running %d; "
                 "SIGTERM exit %s" % (status, "kept" if pending else "missing", failed, rollouts, running, code),
                 "—", "—", "—", "held" if held else "NOT HELD"))

    header = ("probe", "expected", "seen", "peak RSS MB", "worst /health s", "answers after", "")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    else:
        for r in rows:
            print("%-52s %-10s  %s\n    expected: %s; peak RSS %s MB; worst /health %s s; answers after: %s" % (
                r[0], r[6], r[2], r[1], r[3], r[4], r[5]))
    return 0 if all_held else 1


if __name__ == "__main__":
    sys.exit(main())
