"""Dask `distributed` on this machine (issue 26: Python drivers of a campaign run on a LocalCluster):
two worker processes (each under its nanny), one thread each, a trivial function mapped over
them. Skipped without Debian's python3-distributed. Nothing of vsgrid is needed.

Pitfalls a driver must mind (a script, not pytest): LocalCluster(processes=True) starts its workers
with multiprocessing's spawn, which imports the main module again in every worker, so the
cluster must be made under `if __name__ == "__main__":`; the mapped function must be importable
by the workers (a module's top-level function; cloudpickle sends lambdas and closures by value);
dashboard_address=None keeps port 8787 free (and the dashboard needs bokeh, absent here)."""
import logging
import os
import time

import pytest

try:
    from distributed import Client, LocalCluster
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("no dask distributed (apt-get install python3-distributed)", allow_module_level=True)

# tornado 6.2 under distributed 2022.12 (Debian 12) warns on every loop it makes
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")


def _square(x):
    return x * x


def _pid(_):
    return os.getpid()


def test_localcluster_two_worker_processes(tmp_path):
    t0 = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, local_directory=str(tmp_path),
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        client.wait_for_workers(2, timeout=60)
        started = time.perf_counter() - t0
        workers = client.run(os.getpid)  # address -> pid of each worker process
        assert len(workers) == 2 and len(set(workers.values())) == 2
        assert os.getpid() not in workers.values()
        assert all(w["nthreads"] == 1 for w in client.scheduler_info()["workers"].values())
        t1 = time.perf_counter()
        assert client.gather(client.map(_square, range(100))) == [x * x for x in range(100)]
        mapped = time.perf_counter() - t1
        # tasks ran in the worker processes, not here (pure=False: 20 tasks, not one cached)
        pids = set(client.gather(client.map(_pid, range(20), pure=False)))
        assert pids <= set(workers.values())
    total = time.perf_counter() - t0
    print("LocalCluster(2 processes): workers up in %.2f s, 100 tasks in %.3f s, closed after %.2f s"
          % (started, mapped, total))
    assert started < 60
