"""The eval benchmark's peer: a Jupyter kernel (Debian's ipykernel through jupyter_client).

Each line on stdin runs `1+1` once; the answer line gives the milliseconds from execute to the
kernel going idle with its result (measured here, so the pipe to the benchmark is not counted).
"""
import json, sys, time
from jupyter_client.manager import start_new_kernel
km, kc = start_new_kernel(kernel_name="python3")
try:
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        results = []
        started = time.perf_counter()
        reply = kc.execute_interactive("1+1", output_hook=lambda msg: results.append(msg), timeout=30)
        elapsed = (time.perf_counter() - started) * 1000
        value = [m["content"]["data"]["text/plain"] for m in results if m["msg_type"] == "execute_result"]
        print(json.dumps({"ms": elapsed, "status": reply["content"]["status"], "value": value}), flush=True)
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
