#!/usr/bin/env python3
"""`mmsearch serve` under load, beside nginx serving a static JSON file of the same size (the ceiling
for one HTTP answer on this machine), in one run: wrk with 64 keep-alive connections, the keystroke
workload (typing-queries.txt) as /search paths; requests a second and p50/p99 latency. Also: spawn to
first answered request, and the server's memory with 10,000 idle connections open.

usage: Benchmarks/serve/run.py [--index INDEX] [--queries FILE] [--seconds N] [--rounds N] [--out FILE]
Needs the release build (tools/release-build.sh), wrk and nginx (apt-get install wrk nginx). No
timing assertions: it reports, RESULTS-style, in markdown.
"""
import argparse
import os
import platform
import re
import resource
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def release_binary():
    bin_path = subprocess.run([os.path.join(ROOT, "tools/release-build.sh"), "--show-bin-path"], capture_output=True,
                              text=True, check=True).stdout.strip()
    return os.path.join(bin_path, "mmsearch")


def start_server(mmsearch, index, extra=(), prefix=()):
    started = time.perf_counter()
    server = subprocess.Popen([*prefix, mmsearch, "serve", "--index", index, "--listen", "127.0.0.1:0", *extra],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready, _, _ = select.select([server.stdout], [], [], 10)
    if not ready:
        server.kill()
        raise SystemExit("the server did not say it was listening within 10 s")
    port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
    return server, port, started


def stop(server):
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=5)


def first_answer_ms(mmsearch, index, runs):
    """Spawn to the first answered /search request, as a client sees it: Popen, wait for the ready
    line, connect, ask, read the whole answer."""
    times = []
    for _ in range(runs):
        server, port, started = start_server(mmsearch, index)
        with socket.create_connection(("127.0.0.1", port)) as connection:
            connection.sendall(b"GET /search?q=lond HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            while connection.recv(65536):
                pass
        times.append((time.perf_counter() - started) * 1000)
        stop(server)
    return statistics.median(times), min(times), max(times)


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def idle_connections_rss(mmsearch, index, count):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server, port, _ = start_server(mmsearch, index)
    with socket.create_connection(("127.0.0.1", port)) as warm:
        warm.sendall(b"GET /search?q=a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        while warm.recv(65536):
            pass
    before = rss_kb(server.pid)
    connections = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    # Every connection accepted: a request on the last one is answered after all the others are in.
    connections[-1].sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    connections[-1].recv(65536)
    time.sleep(0.5)
    after = rss_kb(server.pid)
    for connection in connections:
        connection.close()
    stop(server)
    return before, after


def wrk(url, seconds, lua=None, env=None, connections=64, threads=2, prefix=()):
    threads = min(threads, connections)
    command = [*prefix, "wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"] + (["-s", lua] if lua else []) + [url]
    output = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))

    def latency(percent):
        value, unit = re.search(rf"\s{percent}%\s+([\d.]+)(us|ms|s)\b", output).groups()
        return float(value) * {"us": 1, "ms": 1000, "s": 1e6}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    return {"rate": rate, "p50": latency(50), "p99": latency(99), "non2xx": int(errors.group(1)) if errors else 0,
            "socket_errors": socket_errors.group(1) if socket_errors else "none", "output": output}


def start_nginx(directory, body, workers="auto", prefix=()):
    with open(os.path.join(directory, "answer.json"), "wb") as file:
        file.write(body)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = os.path.join(directory, f"nginx-{workers}.conf")
    with open(config, "w") as file:
        file.write(f"""
worker_processes {workers};
daemon off;
pid {directory}/nginx-{workers}.pid;
error_log {directory}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    keepalive_requests 1000000;
    keepalive_timeout 30s;
    client_body_temp_path {directory}; proxy_temp_path {directory}; fastcgi_temp_path {directory};
    uwsgi_temp_path {directory}; scgi_temp_path {directory};
    server {{
        listen 127.0.0.1:{port};
        root {directory};
        default_type application/json;
        location / {{ add_header Cache-Control "public, max-age=60"; add_header Access-Control-Allow-Origin "*"; }}
    }}
}}
""")
    nginx = subprocess.Popen([*prefix, "nginx", "-c", config, "-p", directory], stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/answer.json").read()
            return nginx, port
        except OSError:
            time.sleep(0.05)
    nginx.kill()
    raise SystemExit("nginx did not start")


def microseconds(value):
    return f"{value / 1000:.2f} ms" if value >= 1000 else f"{value:.0f} µs"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--index", default=None)
    parser.add_argument("--queries", default=os.path.join(ROOT, "../shared/data/typing-queries.txt"))
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--idle", type=int, default=10_000)
    parser.add_argument("--out", default=None)
    arguments = parser.parse_args()
    for tool in ["wrk", "nginx"]:
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is missing: apt-get install -y wrk nginx")
    mmsearch = release_binary()
    began = time.time()
    with tempfile.TemporaryDirectory(prefix="mmsearch-serve-bench-") as directory:
        index = arguments.index
        if index is None:
            index = os.path.join(directory, "cities.mms")
            data = os.path.join(ROOT, "../shared/data")
            subprocess.run([mmsearch, "build", f"{data}/city.list.json", "--geonames", f"{data}/cities500.txt.gz", "-o", index],
                           check=True, capture_output=True)
        with open(arguments.queries, encoding="utf-8") as file:
            queries = [line.rstrip("\n") for line in file if line.strip("\n")]
        paths_file = os.path.join(directory, "paths.txt")
        with open(paths_file, "w") as file:
            for query in queries:
                file.write("/search?q=" + urllib.parse.quote(query, safe="") + "\n")

        # The answer nginx serves: the median size of mmsearch's answers over the workload.
        server, port, _ = start_server(mmsearch, index)
        sizes = []
        for query in queries[:: max(1, len(queries) // 500)]:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/search?q=" + urllib.parse.quote(query, safe="")) as response:
                sizes.append((len(response.read()), query))
        sizes.sort()
        median_size, median_query = sizes[len(sizes) // 2]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/search?q=" + urllib.parse.quote(median_query, safe="")) as response:
            static_body = response.read()

        nginx, nginx_port = start_nginx(directory, static_body)
        env = dict(os.environ, MMSEARCH_PATHS=paths_file)
        lua = os.path.join(os.path.dirname(os.path.abspath(__file__)), "paths.lua")
        results = {"mmsearch": [], "nginx": []}
        single = {}
        try:
            for _ in range(arguments.rounds):  # interleaved, so that both see the same noise
                results["mmsearch"].append(wrk(f"http://127.0.0.1:{port}", arguments.seconds, lua, env))
                results["nginx"].append(wrk(f"http://127.0.0.1:{nginx_port}/answer.json", arguments.seconds))
            # One connection, one request at a time: the latency of an answer with no queue before it.
            single["mmsearch"] = wrk(f"http://127.0.0.1:{port}", arguments.seconds, lua, env, connections=1)
            single["nginx"] = wrk(f"http://127.0.0.1:{nginx_port}/answer.json", arguments.seconds, connections=1)
        finally:
            nginx.send_signal(signal.SIGQUIT)
            nginx.wait(timeout=10)
            stop(server)

        # Pinned: each server on core 0 alone (one event loop; one nginx worker), wrk on core 1 alone,
        # so that the load generator does not take the servers' core from them.
        pinned = {"mmsearch": [], "nginx": []}
        if os.cpu_count() >= 2 and shutil.which("taskset"):
            server, port, _ = start_server(mmsearch, index, ["--threads", "1"], prefix=["taskset", "-c", "0"])
            nginx, nginx_port = start_nginx(directory, static_body, workers="1", prefix=["taskset", "-c", "0"])
            try:
                for _ in range(arguments.rounds):
                    pinned["mmsearch"].append(wrk(f"http://127.0.0.1:{port}", arguments.seconds, lua, env, threads=1, prefix=["taskset", "-c", "1"]))
                    pinned["nginx"].append(wrk(f"http://127.0.0.1:{nginx_port}/answer.json", arguments.seconds, threads=1, prefix=["taskset", "-c", "1"]))
            finally:
                nginx.send_signal(signal.SIGQUIT)
                nginx.wait(timeout=10)
                stop(server)

        spawn = first_answer_ms(mmsearch, index, 21)
        idle_before, idle_after = idle_connections_rss(mmsearch, index, arguments.idle)

    def median(name, key, runs=None):
        return statistics.median(run[key] for run in (runs or results)[name])

    mm_rate, ng_rate = median("mmsearch", "rate"), median("nginx", "rate")
    mm_p99 = median("mmsearch", "p99")
    revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read()).group(1)
    lines = [
        "## `mmsearch serve` under load, beside nginx (issue 16)",
        "",
        f"Made by `Benchmarks/serve/run.py` at `{revision}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, in {time.time() - began:.0f} s.",
        "",
        f"- machine: {os.cpu_count()} × {cpu}, Linux {platform.release()}: a shared, noisy VM; the load generator (wrk, 2 threads) runs on the same 2 cores as the server, so every figure is a floor, and mmsearch and nginx are measured interleaved, {arguments.rounds} rounds of {arguments.seconds} s each, medians reported",
        f"- mmsearch: the release build (`tools/release-build.sh`), `serve` with its defaults (one event loop a core); index: the list joined with cities500",
        f"- workload: the {len(queries):,} keystroke queries of `typing-queries.txt` as `/search?q=…` paths (percent-encoded), in turn, through 64 keep-alive connections (`wrk -t2 -c64 --latency -s Benchmarks/serve/paths.lua`)",
        "- pinned rows: each server alone on core 0 (`taskset -c 0`; mmsearch `--threads 1`, nginx `worker_processes 1`), wrk alone on core 1 (`taskset -c 1 wrk -t1 -c64`)",
        f"- nginx {subprocess.run(['nginx', '-v'], capture_output=True, text=True).stderr.strip().split('/')[-1]}: `worker_processes auto`, access log off, serving one static JSON file of {len(static_body):,} bytes: the answer to `{median_query}`, the median answer size of the workload ({median_size:,} bytes)",
        "",
        "| server | requests/s | p50 | p99 | non-2xx | socket errors |",
        "|:---|---:|---:|---:|---:|:---|",
    ]
    for name in ["mmsearch", "nginx"]:
        for position, run in enumerate(results[name]):
            lines.append(f"| {name} round {position + 1} | {run['rate']:,.0f} | {microseconds(run['p50'])} | {microseconds(run['p99'])} | {run['non2xx']} | {run['socket_errors']} |")
        lines.append(f"| **{name} median** | **{median(name, 'rate'):,.0f}** | **{microseconds(median(name, 'p50'))}** | **{microseconds(median(name, 'p99'))}** | | |")
    for name in ["mmsearch", "nginx"]:
        for position, run in enumerate(pinned[name]):
            lines.append(f"| {name} pinned round {position + 1} | {run['rate']:,.0f} | {microseconds(run['p50'])} | {microseconds(run['p99'])} | {run['non2xx']} | {run['socket_errors']} |")
        if pinned[name]:
            lines.append(f"| **{name} pinned median** | **{median(name, 'rate', pinned):,.0f}** | **{microseconds(median(name, 'p50', pinned))}** | **{microseconds(median(name, 'p99', pinned))}** | | |")
    for name in ["mmsearch", "nginx"]:
        run = single[name]
        lines.append(f"| {name}, 1 connection (`-t1 -c1`) | {run['rate']:,.0f} | {microseconds(run['p50'])} | {microseconds(run['p99'])} | {run['non2xx']} | {run['socket_errors']} |")
    lines += [
        "",
        "| target | goal | measured | verdict |",
        "|:---|:---|:---|:---|",
        f"| requests a second | at least half of nginx's | {mm_rate:,.0f} = {mm_rate / ng_rate:.2f}× nginx's {ng_rate:,.0f} | {'met' if mm_rate >= ng_rate / 2 else '**missed**'} |",
        f"| p99 at 64 connections | at most 1 ms | {microseconds(mm_p99)} (nginx's: {microseconds(median('nginx', 'p99'))}; pinned: {microseconds(median('mmsearch', 'p99', pinned)) if pinned['mmsearch'] else '-'}, nginx's {microseconds(median('nginx', 'p99', pinned)) if pinned['nginx'] else '-'}; with one connection: {microseconds(single['mmsearch']['p99'])}) | {'met' if mm_p99 <= 1000 else '**missed**'} |",
        f"| spawn to first answered request | at most 20 ms | median {spawn[0]:.1f} ms (min {spawn[1]:.1f}, max {spawn[2]:.1f}; 21 runs, from Python's Popen to the last byte of the answer) | {'met' if spawn[0] <= 20 else '**missed**'} |",
        f"| memory of {arguments.idle:,} idle connections | reported | RSS {idle_before:,} kB before, {idle_after:,} kB with them open: {(idle_after - idle_before) * 1024 / arguments.idle:,.0f} bytes a connection | — |",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if arguments.out:
        with open(arguments.out, "w") as file:
            file.write(text)


if __name__ == "__main__":
    main()
