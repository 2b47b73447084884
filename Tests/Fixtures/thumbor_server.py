"""A thumbor 7.8 server for the scripts that write the serve-* reference tables: started on a free port with its
file loader over a folder, stopped when the block ends.

    with thumbor_server.running(folder) as port:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/unsafe/100x100/a.png")

Needs thumbor from PyPI (`pip install thumbor==7.8.0`) in the interpreter that runs the script.
"""
import contextlib
import os
import socket
import subprocess
import sys
import time


@contextlib.contextmanager
def running(folder, settings="ALLOW_UNSAFE_URL = True\n"):
    """`settings`: more lines of thumbor.conf (by default unsafe URLs are allowed)."""
    config = os.path.join(folder, "thumbor.conf")
    with open(config, "w") as file:
        file.write(f"LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = '{folder}'\n"
                   "STORAGE = 'thumbor.storages.no_storage'\nRESULT_STORAGE = 'thumbor.result_storages.no_storage'\n"
                   + settings)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "thumbor"), "--port", str(port),
                               "--conf", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait()
