#!/usr/bin/env python3
"""Benchmarks/service_ab.py: two `wi` builds on the Service requests, interleaved rounds, rate and CPU per answer.

  Benchmarks/service_ab.py BEFORE_WI AFTER_WI [--ext jpg|png|webp] [--rounds N] [--seconds S]
  Benchmarks/service_ab.py BEFORE_WI AFTER_WI --cached [--rounds N] [--seconds S]

The first form runs the Service rows' requests (fit-in/512x512, quality(80), the twenty pictures of
Benchmarks/.build-data/service-www, made by `Benchmarks/compare --prepare`) against both builds behind one loopback
nginx, 2 keep-alive connections, alternating which build goes first each round; the second serves one stored
variant from each build's variant cache under 64 connections, beside nginx serving the same bytes as a static file
with its access log off and on. Printed per run and as medians: requests per second and the server's CPU (user +
system of its process tree, from /proc) per answer. A change to the service shows its cost with more rounds than
`compare`'s single WI_SERVE_BEFORE run, and the CPU column moves less than the rate when other work shares the cores.
"""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import service_area as sa  # noqa: E402

WWW = os.path.join(HERE, ".build-data", "service-www")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(port):
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


class Target:
    def __init__(self, name, port, process, path):
        self.name, self.port, self.process, self.path = name, port, process, path

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--ext", default="jpg", choices=["jpg", "png", "webp"])
    parser.add_argument("--cached", action="store_true")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=int, default=10)
    args = parser.parse_args()
    if not os.path.isdir(WWW):
        raise SystemExit(f"{WWW} is missing: run Benchmarks/compare --prepare first")
    scratch = tempfile.mkdtemp(prefix="wi-service-ab-")
    processes = []

    def nginx(name, log):
        folder = os.path.join(scratch, name)
        os.makedirs(folder)
        port = free_port()
        access = f"{folder}/access.log" if log else "off"
        with open(f"{folder}/nginx.conf", "w") as f:
            f.write(f"""worker_processes 1; daemon off; master_process off; pid {folder}/nginx.pid;
error_log {folder}/error.log; events {{ worker_connections 1024; }}
http {{ access_log {access}; sendfile on; client_body_temp_path {folder}/body; proxy_temp_path {folder}/proxy;
fastcgi_temp_path {folder}/fastcgi; uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;
types {{ image/jpeg jpg; image/png png; image/webp webp; }}
server {{ listen 127.0.0.1:{port}; root {WWW}; }} }}""")
        process = subprocess.Popen([sa_nginx(), "-p", folder, "-c", f"{folder}/nginx.conf", "-e", f"{folder}/error.log"])
        processes.append(process)
        wait(port)
        return port, process

    try:
        origin, _ = nginx("origin", False)
        targets = []
        for name, wi in (("before", args.before), ("after", args.after)):
            port = free_port()
            caching = ["--cache-dir", os.path.join(scratch, f"cache-{name}")] if args.cached else ["--no-cache"]
            log = open(os.path.join(scratch, f"{name}.log"), "w")
            process = subprocess.Popen([wi, "serve", "--bind", "127.0.0.1", "--port", str(port), *caching,
                                        "--allow-unsafe", "--allow-host", "127.0.0.1"], stdout=log,
                                       stderr=subprocess.STDOUT)
            processes.append(process)
            wait(port)
            targets.append(Target(name, port, process, None))
        if args.cached:
            path = sa.request_path(origin, 1, "jpg")
            for target in targets:
                target.path = [path]
                for _ in range(2):   # rendered, then stored
                    body = urllib.request.urlopen(target.url(path), timeout=60).read()
            with open(os.path.join(WWW, "variant.jpg"), "wb") as f:   # as the Service area's cached row does
                f.write(body)
            for name, log in (("nginx", False), ("nginx+log", True)):
                port, process = nginx(name.replace("+", "-"), log)
                targets.append(Target(name, port, process, ["/variant.jpg"]))
            connections = 64
        else:
            paths = [sa.request_path(origin, i, args.ext) for i in range(1, sa.PICTURES + 1)]
            for target in targets:
                target.path = paths
            connections = 2
        results = {t.name: [] for t in targets}
        for t in targets:
            with open(os.path.join(scratch, f"paths-{t.port}.txt"), "w") as f:
                f.write("\n".join(t.path) + "\n")
            sa.wrk(t, os.path.join(scratch, f"paths-{t.port}.txt"), connections, 3)   # warm-up
        for round_ in range(args.rounds):
            for t in (targets if round_ % 2 == 0 else list(reversed(targets))):
                cpu = sa.cpu_seconds(t.process.pid)
                r = sa.wrk(t, os.path.join(scratch, f"paths-{t.port}.txt"), connections, args.seconds)
                per = (sa.cpu_seconds(t.process.pid) - cpu) / max(1, r["requests"])
                results[t.name].append((r["rps"], per))
                print(f"{t.name}: {r['rps']:.1f} req/s, CPU {per * 1e3:.3f} ms/answer", flush=True)
        for name, rows in results.items():
            print(f"{name}: median {statistics.median(r[0] for r in rows):.1f} req/s, "
                  f"CPU {statistics.median(r[1] for r in rows) * 1e3:.3f} ms/answer")
    finally:
        for process in processes:
            process.terminate()
        shutil.rmtree(scratch, ignore_errors=True)


def sa_nginx():
    return shutil.which("nginx") or "/usr/sbin/nginx"


if __name__ == "__main__":
    main()
