"""gunicorn's settings for the site, read by every way it is served (``gunicorn -c
deploy/gunicorn.conf.py config.wsgi``: systemd, the Procfile, compose, the Docker image, the
production stage, the load test and ``manage.py bench federation``), so the burst the bench
measures is the server the club runs. The address to listen on is each one's own (``--bind``).

Threads: a deal's request waits on the database most of its time (its statements, the commit's
flush), so one process a core serves several at once. A worker takes no more connections than
it has threads: the others wait in the kernel's queue, first come first served, instead of
piling up behind one busy worker. Measured with 200 scorers at once on 2 cores (``bench
federation``): 4 sync workers 16–18 deals/s, p95 12–14 s; 4 × 8 threads 32–35 deals/s, p95
6.5–8.4 s. Each thread keeps its own database connection: WEB_WORKERS × WEB_THREADS a web
container (deploy/scaling.md says when pgbouncer is needed).
"""

import os

workers = int(os.environ.get("WEB_WORKERS", "4"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "8"))
worker_connections = threads
timeout = 30
