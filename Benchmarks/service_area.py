"""The Service area of Benchmarks/compare: `wi serve` against thumbor 7.8 behind the same loopback nginx origin.

Both servers get the same requests from the same client, in the same run: `wrk` (Debian's wrk 4.1) with 2
keep-alive connections (one per core) cycling over `/unsafe/fit-in/512x512/filters:quality(80)/<origin>/N.<ext>`
for the twenty 2040x1356 pictures of Reference/make_service_inputs.py (JPEG, PNG and WebP rows; each output keeps
its source's format), for BENCH_SERVICE_SECONDS (60 by default) after a warm-up of a quarter of that (at most 10 s).
Every request does the whole job on both sides: download from nginx, decode, resize, encode; nothing is cached
(`wi serve --no-cache`; thumbor with `STORAGE = no_storage` and no result storage). Before timing, one response per
format from each server is decoded to check that both return the same thing (512 px wide, 340 or 341 high, the
source's format). thumbor runs one process per core (`--processes`), as `wi serve` uses every core.

Peak RSS is VmHWM from /proc (summed over thumbor's processes), reset through /proc/PID/clear_refs after each
warm-up so that it is the peak of the measured run. A last run opens 64 connections on the JPEGs: `wi serve`
should answer the excess with 503 (its --concurrency and --queue bounds) and keep its peak RSS under 600 MB.

A last row serves one variant already encoded from `wi serve`'s variant cache against nginx serving the same bytes as
a static file, both under 64 connections and both writing an access-log line per answer (issue 41: at least half
nginx's rate); nginx without its log is printed beside.

Beside each format's thumbor row, libvips in process (Reference/vips_service.py: pyvips' thumbnail_buffer and save,
one process per core, no HTTP, no origin, while both servers idle): the rate no libvips-based service (imgproxy,
imaginary, weserv) can pass, and issue 41's yardstick.

Servers are started by this module with their own configuration on free loopback ports and stopped by their PID.
"""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
THUMBOR_VENV = os.path.join(HERE, ".venv-thumbor")
THUMBOR_VERSION = "7.8.0"
WRK_SCRIPT = os.path.join(HERE, "Reference", "service_wrk.lua")
FORMATS = [("jpg", "JPEG"), ("png", "PNG"), ("webp", "WEBP")]
PICTURES = 20
OUTPUT_WIDTH, OUTPUT_HEIGHTS = 512, (340, 341)   # 2040x1356 fitted in 512x512
LOAD_CONNECTIONS = 64
RSS_GOAL_BYTES = 600e6


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def thumbor_executable():
    """thumbor from PyPI in a venv of its own (it pins Pillow 12; the other references use Pillow 13)."""
    executable = os.path.join(THUMBOR_VENV, "bin", "thumbor")
    if os.path.exists(executable):
        version = subprocess.run([executable, "--version"], capture_output=True, text=True).stdout
        if THUMBOR_VERSION in version:
            return executable
    log(f"compare: installing thumbor {THUMBOR_VERSION} into Benchmarks/.venv-thumbor")
    subprocess.run([sys.executable, "-m", "venv", THUMBOR_VENV], check=True)
    subprocess.run([os.path.join(THUMBOR_VENV, "bin", "pip"), "install", "-q", f"thumbor=={THUMBOR_VERSION}"],
                   check=True)
    return executable


def wi_executable():
    """The release `wi` of the root package, or None when it has no `serve` subcommand."""
    log("compare: swift build -c release --product wi (root package)")
    subprocess.run(["swift", "build", "-c", "release", "--product", "wi"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    wi = os.path.join(bin_dir, "wi")
    usage = subprocess.run([wi, "serve", "--help"], capture_output=True, text=True).stdout
    # Without the subcommand, ArgumentParser prints the root help (and exits 0): look for serve's own options.
    return wi if "--allow-host" in usage and "--no-cache" in usage else None


# ---------------------------------------------------------------- processes and memory

def process_tree(pid):
    """`pid` and its descendants (from /proc/PID/task/*/children)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        task_dir = f"/proc/{current}/task"
        for task in os.listdir(task_dir) if os.path.isdir(task_dir) else []:
            try:
                with open(f"{task_dir}/{task}/children") as f:
                    pending += [int(child) for child in f.read().split()]
            except OSError:
                pass
    return found


def peak_rss_bytes(pid):
    """The sum of VmHWM (peak resident set) over `pid`'s process tree."""
    total = 0
    for member in process_tree(pid):
        with open(f"/proc/{member}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1]) * 1024
    return total


def cpu_seconds(pid):
    """User + system CPU seconds of `pid`'s process tree so far (/proc/PID/stat; its threads included)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for member in process_tree(pid):
        try:
            with open(f"/proc/{member}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])   # utime, stime (fields 14 and 15 of stat)
    return total / ticks


def reset_peak_rss(pid):
    """Sets VmHWM back to the current RSS in every process of the tree (clear_refs value 5, Linux >= 4.0)."""
    for member in process_tree(pid):
        with open(f"/proc/{member}/clear_refs", "w") as f:
            f.write("5")


class Server:
    """An image server on a free loopback port, started from `command(port)` and stopped by its PID."""

    def __init__(self, name, command, servers, directory):
        self.name, self.servers = name, servers
        self.port = servers.free_port()
        os.makedirs(directory, exist_ok=True)
        self.log_path = os.path.join(directory, f"{name.split()[0]}.log")
        self.log_file = open(self.log_path, "w")
        self.process = subprocess.Popen(command(self.port), stdout=self.log_file, stderr=subprocess.STDOUT,
                                        cwd=directory)
        servers.wait_listening(self.port, self.process, name)

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        # thumbor's --processes forks workers that outlive their parent's SIGTERM: stop every member of the tree.
        children = [pid for pid in process_tree(self.process.pid) if pid != self.process.pid]
        self.servers.stop_process(self.process)
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        self.log_file.close()


def start_thumbor(servers, directory):
    conf = os.path.join(directory, "thumbor.conf")
    os.makedirs(directory, exist_ok=True)
    with open(conf, "w") as f:
        f.write("# Written by Benchmarks/service_area.py: every request does the whole job.\n"
                "ALLOW_UNSAFE_URL = True\n"
                "STORAGE = 'thumbor.storages.no_storage'\n"
                "RESULT_STORAGE = None\n"
                "QUALITY = 80\n"
                # thumbor's default JPEG is progressive; `wi serve`'s is baseline: the same work on both sides.
                "PROGRESSIVE_JPEG = False\n")
    executable = thumbor_executable()
    processes = str(os.cpu_count() or 1)
    return Server(f"thumbor {THUMBOR_VERSION} ({processes} processes)",
                  lambda port: [executable, "-p", str(port), "-i", "127.0.0.1", "-c", conf, "-l", "error",
                                "--processes", processes], servers, directory)


def start_wi(wi, servers, directory, name="wi serve", cache_dir=None):
    """`wi serve` with no cache, or with its caches under `cache_dir`."""
    caching = ["--cache-dir", cache_dir] if cache_dir else ["--no-cache"]
    return Server(name, lambda port: [wi, "serve", "--bind", "127.0.0.1", "--port", str(port), *caching,
                                      "--allow-unsafe", "--allow-host", "127.0.0.1"], servers, directory)


# ---------------------------------------------------------------- requests

def request_path(origin_port, index, ext):
    return f"/unsafe/fit-in/512x512/filters:quality(80)/http://127.0.0.1:{origin_port}/{index}.{ext}"


def check_output(python, server, origin_port, ext, expected_format):
    """Fetches picture 1 once and checks what came back (size and format), so both sides do the same work."""
    url = server.url(request_path(origin_port, 1, ext))
    with urllib.request.urlopen(url, timeout=60) as response:
        body = response.read()
    script = ("import io, sys; from PIL import Image; i = Image.open(io.BytesIO(sys.stdin.buffer.read())); "
              "print(i.format, i.size[0], i.size[1])")
    described = subprocess.run([python, "-c", script], input=body, capture_output=True, check=True).stdout
    fmt, width, height = described.decode().split()
    if fmt != expected_format or int(width) != OUTPUT_WIDTH or int(height) not in OUTPUT_HEIGHTS:
        raise RuntimeError(f"{server.name}: {url} gave {fmt} {width}x{height}, expected {expected_format} "
                           f"{OUTPUT_WIDTH}x{'/'.join(map(str, OUTPUT_HEIGHTS))}")
    return f"{width}x{height}"


def wrk(server, paths_file, connections, seconds):
    """One wrk run; returns its WRKJSON totals plus `rps`."""
    command = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency", "--timeout", "30s",
               "-s", WRK_SCRIPT, server.url("/"), "--", paths_file]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    line = next((l for l in out.splitlines() if l.startswith("WRKJSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no totals:\n{out}")
    result = json.loads(line[len("WRKJSON "):])
    result["statuses"] = {int(k): v for k, v in result["statuses"].items()}
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    return result


def measure(server, paths_file, connections, seconds, warmup):
    if warmup:
        wrk(server, paths_file, connections, warmup)
    reset_peak_rss(server.process.pid)
    cpu = cpu_seconds(server.process.pid)
    result = wrk(server, paths_file, connections, seconds)
    result["rss"] = peak_rss_bytes(server.process.pid)
    # CPU per answer: the server's own cost, which other work on the machine changes much less than the rate.
    result["cpu_per_request"] = (cpu_seconds(server.process.pid) - cpu) / max(1, result["requests"])
    return result


# ---------------------------------------------------------------- rows

def describe(r):
    """`12.3 req/s, p95 180 ms, peak RSS 95 MiB` (+ counts that are not 200)."""
    others = {s: n for s, n in sorted(r["statuses"].items()) if s != 200}
    errors = r["connect_errors"] + r["read_errors"] + r["write_errors"] + r["timeouts"]
    text = f'{ok_rps(r):.1f} req/s, p95 {r["p95_us"] / 1000:.0f} ms, peak RSS {r["rss"] / 2**20:.0f} MiB'
    if "cpu_per_request" in r:
        text += f', CPU {r["cpu_per_request"] * 1000:.2f} ms/answer'
    if others:
        text += f', {r["statuses"].get(200, 0)} x 200, ' + ", ".join(f"{n} x {s}" for s, n in others.items())
    if errors:
        text += f", {errors} socket errors/timeouts"
    return text


def ok_rps(result):
    """Responses with status 200 per second (a 503 is not work done)."""
    return result["statuses"].get(200, 0) / (result["duration_us"] / 1e6)


def all_ok(result, name):
    bad = sum(n for s, n in result["statuses"].items() if s != 200)
    if bad or result["requests"] == 0:
        raise RuntimeError(f"{name}: {result['requests']} requests, {bad} not 200: {result['statuses']}")


def vips_in_process(python, www, ext, seconds):
    """(images per second, libvips version) of Reference/vips_service.py on the Service inputs of `ext`, every core
    busy with it while the servers idle; None when pyvips is missing."""
    files = sorted(os.path.join(www, name) for name in os.listdir(www) if name.endswith("." + ext))
    try:
        done = subprocess.run([python, os.path.join(HERE, "Reference", "vips_service.py"), str(seconds), ext, "80",
                               *files], check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as error:
        log(f"compare: libvips in process failed ({error}); its Service row skipped")
        return None
    values = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    return float(values["rate"]), values["version"].strip()


def cached_variant_row(wi, servers, nginx, www, scratch, seconds):
    """Issue 41: a variant already encoded, answered from `wi serve`'s variant cache, against nginx serving the same
    bytes as a static file, both under LOAD_CONNECTIONS keep-alive connections asking for that one URL. The same
    work on both sides: `wi serve` writes one access-log line per answer (to its log file), so the reference nginx
    writes its own (combined format, to a file); nginx without its log is measured too and printed beside. Three
    rounds of a third of `seconds` each, the order turned every round (the two share the cores with wrk, and one
    30 s run of each read 0.43x-0.59x on the same code): the median ratio, the spread the rounds'."""
    cached = start_wi(wi, servers, os.path.join(scratch, "service-wi-cached"), name="wi serve (cached)",
                      cache_dir=os.path.join(scratch, "service-wi-cache"))
    logged = servers.Nginx(servers.find_tool("nginx"), www, os.path.join(scratch, "service-nginx-logged"),
                           access_log=True)
    try:
        path = request_path(nginx.port, 1, "jpg")
        body = b""
        for _ in range(2):   # the first renders and stores the variant; the second is answered from it
            with urllib.request.urlopen(cached.url(path), timeout=60) as response:
                body = response.read()
        with open(os.path.join(www, "variant.jpg"), "wb") as f:
            f.write(body)
        sides = [("ours", cached, path), ("nginx", logged, "/variant.jpg"), ("nginx, no log", nginx, "/variant.jpg")]
        results = {name: [] for name, _, _ in sides}
        for turn in range(3):
            for name, server, request in (sides if turn % 2 == 0 else list(reversed(sides))):
                paths_file = os.path.join(scratch, f"variant-{server.port}.txt")
                with open(paths_file, "w") as f:
                    f.write(request + "\n")
                log(f"compare: Service: the cached variant from {name}, {LOAD_CONNECTIONS} connections, "
                    f"{max(1, seconds // 3)} s (round {turn + 1} of 3)")
                results[name].append(measure(server, paths_file, LOAD_CONNECTIONS, max(1, seconds // 3), 1))
        for name in ("nginx", "nginx, no log"):
            for result in results[name]:
                all_ok(result, f"{name}, the cached variant's bytes")   # ours: its 503s, if any, are reported
        ratios = sorted(ok_rps(r) / ok_rps(o) for o, r in zip(results["ours"], results["nginx"]))
        ratio = ratios[1]   # time per answer, ours / nginx's: the median round
        o, r = (sorted(results[name], key=ok_rps)[1] for name in ("ours", "nginx"))
        bare = sorted(results["nginx, no log"], key=ok_rps)[1]
        return {"area": "Service", "kind": "service",
                "workload": f"one cached variant ({len(body)} bytes), {LOAD_CONNECTIONS} keep-alive clients, "
                            f"3 x {max(1, seconds // 3)} s; each side logs every answer",
                "reference": "nginx serving the same bytes as a static file, access log on",
                "ours": 1 / ok_rps(o), "ref": 1 / ok_rps(r), "ratio": ratio, "spread": [ratios[0], ratios[-1]],
                "ours_text": describe(o),
                "ref_text": f"{describe(r)}; without its log {ok_rps(bare):.1f} req/s "
                            f"({ok_rps(bare) / ok_rps(o):.2f}x ours)",
                "goal": ">= half nginx's rate (ratio <= 2.0)", "met": ratio <= 2.0}
    finally:
        cached.stop()
        logged.stop()


def rows(python, servers, data, scratch):
    """The Service rows; `servers` gives compare's free_port, wait_listening, stop_process and Nginx."""
    seconds = int(os.environ.get("BENCH_SERVICE_SECONDS", "60"))
    warmup = max(1, min(10, seconds // 4))
    wi = wi_executable()
    if wi is None:
        log("compare: this `wi` has no `serve` subcommand; Service rows skipped")
        return []
    www = os.path.join(data, "service-www")
    subprocess.run([python, os.path.join(HERE, "Reference", "make_service_inputs.py"),
                    os.path.join(ROOT, "Tests", "Fixtures"), www], check=True)
    nginx = servers.Nginx(servers.find_tool("nginx"), www, os.path.join(scratch, "service-nginx"))
    started = []
    try:
        ours = start_wi(wi, servers, os.path.join(scratch, "service-wi"))
        started.append(ours)
        reference = start_thumbor(servers, os.path.join(scratch, "service-thumbor"))
        started.append(reference)
        # WI_SERVE_BEFORE=/path/to/an/older/wi: that build too, in the same rotation, for before/after rows (a
        # change to the service shows its cost in one run; the older `wi` is built from a worktree of that commit).
        before = None
        if os.environ.get("WI_SERVE_BEFORE"):
            label = os.environ.get("WI_SERVE_BEFORE_LABEL", "before")
            before = start_wi(os.environ["WI_SERVE_BEFORE"], servers, os.path.join(scratch, "service-wi-before"),
                              name=f"wi serve ({label})")
            started.append(before)
        out = []
        for turn, (ext, fmt) in enumerate(FORMATS):
            paths_file = os.path.join(scratch, f"service-{ext}.txt")
            with open(paths_file, "w") as f:
                f.write("\n".join(request_path(nginx.port, i, ext) for i in range(1, PICTURES + 1)) + "\n")
            contenders = [ours, reference] + ([before] if before else [])
            sizes = {s.name: check_output(python, s, nginx.port, ext, fmt) for s in contenders}
            results = {}
            for server in (contenders if turn % 2 == 0 else list(reversed(contenders))):
                log(f"compare: Service {fmt}: {server.name}, 2 connections, {seconds} s after {warmup} s warm-up")
                results[server.name] = measure(server, paths_file, 2, seconds, warmup)
                all_ok(results[server.name], f"{server.name} {fmt}")
            o, r = results[ours.name], results[reference.name]
            ratio = r["rps"] / o["rps"]   # time per request, ours / thumbor's
            out.append({"area": "Service", "kind": "service",
                        "workload": f"fit-in/512x512 + quality(80), 20 x 2040x1356 {fmt}, 2 keep-alive clients, "
                                    f"{seconds} s (outputs {sizes[ours.name]} / {sizes[reference.name]})",
                        "reference": reference.name, "ours": 1 / o["rps"], "ref": 1 / r["rps"], "ratio": ratio,
                        "spread": [ratio, ratio], "ours_text": describe(o), "ref_text": describe(r),
                        "goal": ">= 2x thumbor's requests/s (ratio <= 0.5)", "met": ratio <= 0.5})
            vips = vips_in_process(python, www, ext, seconds)
            if vips:
                rate, version = vips
                share = rate / o["rps"]   # time per image, ours / libvips's
                out.append({"area": "Service", "kind": "service",
                            "workload": f"the same {fmt} work in process: libvips {version} thumbnail_buffer + save, "
                                        f"one process per core, no HTTP, no origin ({seconds} s)",
                            "reference": f"libvips {version} in process", "ours": 1 / o["rps"], "ref": 1 / rate,
                            "ratio": share, "spread": [share, share], "ours_text": describe(o),
                            "ref_text": f"{rate:.1f} images/s",
                            "goal": ">= libvips's in-process rate (ratio <= 1.0)", "met": share <= 1.0})
            if before:
                b = results[before.name]
                change = b["rps"] / o["rps"]   # time per request, now / before
                cpu_change = o["cpu_per_request"] / b["cpu_per_request"]
                out.append({"area": "Service", "kind": "service",
                            "workload": f"the same {fmt} requests, this build against {before.name} (CPU per answer "
                                        f"now / before: {cpu_change:.3f})",
                            "reference": before.name, "ours": 1 / o["rps"], "ref": 1 / b["rps"], "ratio": change,
                            "spread": [change, change], "ours_text": describe(o), "ref_text": describe(b),
                            "goal": "no slower than before (ratio <= 1.05, the run-to-run noise)",
                            "met": change <= 1.05})
        load_seconds = min(seconds, 30)
        paths_file = os.path.join(scratch, "service-jpg.txt")
        results = {}
        for server in (ours, reference):
            log(f"compare: Service: {server.name}, {LOAD_CONNECTIONS} connections, {load_seconds} s")
            results[server.name] = measure(server, paths_file, LOAD_CONNECTIONS, load_seconds, 0)
        o, r = results[ours.name], results[reference.name]
        refused = o["statuses"].get(503, 0)
        out.append(cached_variant_row(wi, servers, nginx, www, scratch, load_seconds))
        out.append({"area": "Service", "kind": "service",
                    "workload": f"the same JPEGs, {LOAD_CONNECTIONS} keep-alive clients, {load_seconds} s (wi serve's "
                                f"defaults: --concurrency = cores, --queue 16)",
                    "reference": reference.name, "ours": 1 / ok_rps(o), "ref": 1 / ok_rps(r),
                    "ratio": ok_rps(r) / ok_rps(o), "spread": [ok_rps(r) / ok_rps(o)] * 2,
                    "ours_text": describe(o), "ref_text": describe(r),
                    "goal": "the excess gets 503; peak RSS < 600 MB",
                    "met": refused > 0 and o["rss"] < RSS_GOAL_BYTES})
        return out
    finally:
        for server in started:
            server.stop()
        nginx.stop()
