"""Work in other processes and threads: the process pool sized to the work
(:mod:`.executor`), workers that end with their parent (:mod:`.lifeline`), the Dask
cluster of ``--scheduler`` (:mod:`.cluster`) and modules imported in the background
(:mod:`.preload`). Leaf helpers: they import nothing of irtables but its errors.
"""
