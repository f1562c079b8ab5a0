"""The client's side of a Dask cluster: connect, check the workers, collect results.

- `session(scheduler=ADDRESS)` connects to a running scheduler (`dask scheduler`) within
  `CONNECT_TIMEOUT` seconds and waits up to `WORKER_TIMEOUT` for a first worker;
  `session(workers=N)` starts a loopback cluster of N worker processes (one thread each)
  and stops it on the way out. Either way the caller gets a `distributed.Client`.
- `check_workers` refuses, in one line, workers whose raglab sources or model file differ
  from the client's: their results would not be the client's results.
- `collect` waits for futures and hands each result to the caller as it arrives; a worker
  that dies mid-task has its task re-run on another one (Dask does that), and a job left
  with no worker at all, or whose task kept killing workers, stops with a clear error.

Errors are `ClusterError` (a ValueError: the CLI prints it as its one-line error).
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any, Callable, Iterable, Iterator

from raglab.cluster.worker import code_digest, identity, mismatch

CONNECT_TIMEOUT = 5  # seconds to reach a scheduler
WORKER_TIMEOUT = 30  # seconds a job waits while no worker is connected
POLL = 0.5  # seconds between checks while waiting


class ClusterError(ValueError):
    """The cluster cannot do the job; the message says what to do."""


def require_dask():
    try:
        import distributed
    except ImportError:
        raise ClusterError("--scheduler and --workers need Dask; install it with: pip install 'raglab[cluster]'") from None
    return distributed


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


@contextlib.contextmanager
def session(scheduler: str | None = None, workers: int | None = None) -> Iterator[Any]:
    """A client of the scheduler at `scheduler`, or of a new loopback cluster of `workers` processes."""
    if (scheduler is None) == (workers is None):
        raise ClusterError("give either a scheduler address or a number of workers")
    distributed = require_dask()
    if workers is not None:
        if workers < 1:
            raise ClusterError(f"--workers takes a number of worker processes >= 1, got {workers}")
        import dask

        # The workers' statistical profiler samples every thread each 10 ms; raglab's tasks
        # are kernel calls, whose samples say nothing, so a loopback cluster runs without it.
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                               silence_logs=logging.ERROR)
        try:
            with distributed.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    assert scheduler is not None
    if not scheduler.strip():
        raise ClusterError("--scheduler is empty; give the address `dask scheduler` prints, e.g. tcp://10.0.0.5:8786")
    try:
        client = distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s")
    except (OSError, TimeoutError, ValueError, TypeError) as err:
        raise ClusterError(f"cannot reach a Dask scheduler at {scheduler} ({_first_line(err)}); start one with "
                           "`dask scheduler` and pass the address it prints") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except TimeoutError:
            raise ClusterError(f"the scheduler at {scheduler} has no workers after {WORKER_TIMEOUT} s; start some "
                               f"with `dask worker {scheduler}`") from None
        yield client


def threads(client) -> int:
    """Worker threads connected now (at least 1, to size batches before any has joined)."""
    return max(1, sum(client.nthreads().values()))


def check_workers(client, digest: str | None) -> int:
    """Refuse workers that run other raglab sources or (with `digest`) another model file.

    Returns the number of workers checked."""
    ours = code_digest()
    seen = client.run(identity, digest is not None)
    for address, got in sorted(seen.items()):
        if got["code"] != ours:
            raise ClusterError(f"worker {address} runs other raglab code (sources {got['code'][:12]}…, the client's "
                               f"{ours[:12]}…); install the client's raglab version on every worker")
        if digest is None:
            continue
        if "model_error" in got:
            raise ClusterError(f"worker {address}: {got['model_error']}")
        if got["model"] != digest:
            raise ClusterError(mismatch(f"worker {address}", got["model_path"], got["model"], digest))
    return len(seen)


def collect(client, tasks: Iterable[tuple[Any, Callable[[], Any]]], on_result: Callable[[Any, Any], None],
            window: Callable[[], int] | None = None) -> None:
    """Run `tasks`, pairs of (tag, submit) where ``submit()`` returns a future, keeping at most
    ``window()`` in flight (all at once without one), and call ``on_result(tag, result)`` for
    each as it finishes. A failed task cancels the rest and raises `ClusterError`."""
    distributed = require_dask()
    queue = iter(tasks)
    pending: dict = {}
    alone_since: float | None = None

    def top_up() -> None:
        limit = window() if window else None
        while limit is None or len(pending) < limit:
            nxt = next(queue, None)
            if nxt is None:
                return
            pending[nxt[1]()] = nxt[0]

    try:
        top_up()
        while pending:
            try:
                done, _ = distributed.wait(list(pending), timeout=POLL, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            for fut in done:
                on_result(pending.pop(fut), _result(fut))
            top_up()
            if done or client.nthreads():
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > WORKER_TIMEOUT:
                raise ClusterError(f"no worker left for {WORKER_TIMEOUT} s with {len(pending)} tasks in flight; what "
                                   "finished is kept (a rerun resumes): start workers and run the command again")
    finally:
        if pending:
            client.cancel(list(pending))


def _result(fut):
    """The future's result; a task's failure as one ClusterError line."""
    if fut.status != "error":
        return fut.result()
    err = fut.exception()
    if isinstance(err, ValueError):  # ModelMismatch, a refused input: the message says what to do
        raise ClusterError(_first_line(err))
    if type(err).__name__ == "KilledWorker":
        raise ClusterError("a task kept killing the workers that ran it (each one died mid-task); what finished "
                           "is kept: look at the workers' logs (memory?), then rerun to resume")
    raise ClusterError(f"a task failed on a worker: {type(err).__name__}: {_first_line(err)}")


def scatter(client, value) -> Any:
    """`value` sent to the cluster once, as one object (a future the tasks take as an argument)."""
    [future] = client.scatter([value], hash=False)
    return future
