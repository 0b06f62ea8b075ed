"""`mmsearch serve` as a child of a test script (the browser test, the geopy clients' test): started
on 127.0.0.1 with a port the system picks, and stopped with SIGTERM, which must end it with status 0
within 5 s."""
import contextlib
import re
import select
import signal
import subprocess


@contextlib.contextmanager
def served(mmsearch, index, who):
    """Yields (server, "127.0.0.1:PORT") while `mmsearch serve --index INDEX` runs; `who` names the
    script in the errors (SystemExit) it raises."""
    server = subprocess.Popen([mmsearch, "serve", "--index", index, "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([server.stdout], [], [], 10)
    line = server.stdout.readline() if ready else ""
    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not match:
        server.kill()
        raise SystemExit(f"{who}: the server did not say where it listens within 10 s: {line!r}")
    try:
        yield server, f"127.0.0.1:{match.group(1)}"
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            status = server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            raise SystemExit(f"{who}: the server did not stop within 5 s of SIGTERM")
    if status != 0:
        raise SystemExit(f"{who}: the server exited {status}: {server.stderr.read()}")
