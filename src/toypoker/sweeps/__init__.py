"""Sweeps (front-end floor): a grid of jobs of any kind run serially or on
``dask.distributed`` and gathered into one table; ``jobs.py`` the job kinds,
``run.py`` the grid, the schedulers and the table.  May import every floor
below (the library and the studies); nothing below imports it.
"""

from toypoker.sweeps.cluster import DASK_HINT
from toypoker.sweeps.jobs import JOB_KINDS, run_job
from toypoker.sweeps.run import PARQUET_HINT, SweepResult, grid, sweep

__all__ = ["DASK_HINT", "JOB_KINDS", "PARQUET_HINT", "SweepResult", "grid", "run_job", "sweep"]
