# The lease-parser image: every role (worker, exporter, Flower, CLI) runs from it; the
# command picks the role (see k8s/). `make image` builds it with buildah from a Debian base
# made locally (scripts/build_image.sh); with a registry at hand, BASE can be any slim
# Debian bookworm image.
#
# The build context is the wheelhouse scripts/build_image.sh fills (the project's wheel and
# every dependency as wheels), so nothing is fetched from PyPI inside the build and the
# image gets exactly the versions the tests ran with.
ARG BASE=docker.io/library/debian:bookworm-slim

FROM ${BASE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv \
 && rm -rf /var/lib/apt/lists/*
COPY wheels /wheels
# The postgres extra: production stores are PostgreSQL (README, "The canonical store").
RUN python3 -m venv /opt/lease-parser \
 && /opt/lease-parser/bin/pip install --no-cache-dir --no-index --find-links /wheels \
      "lease-parser[postgres]" \
 && /opt/lease-parser/bin/pip uninstall -y pip \
 && /opt/lease-parser/bin/python -m compileall -q /opt/lease-parser

FROM ${BASE}
# Tesseract and its English data do the OCR; python3 is the interpreter the venv links to
# (same path as in the build stage).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 tesseract-ocr tesseract-ocr-eng \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 lease \
 && useradd --uid 10001 --gid 10001 --home-dir /var/lib/lease-parser --create-home \
      --shell /usr/sbin/nologin lease
COPY --from=build /opt/lease-parser /opt/lease-parser
# OMP_THREAD_LIMIT=1: threaded Tesseract costs ~6x the CPU when every core already runs a
# worker child. The bytecode was compiled in the build stage; pods run read-only.
ENV PATH=/opt/lease-parser/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    OMP_THREAD_LIMIT=1 \
    LEASE_DATA_DIR=/var/lib/lease-parser \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
USER 10001:10001
WORKDIR /var/lib/lease-parser
# For docker/podman hosts: the broker answers (Kubernetes ignores this and runs the pods'
# own probes, which also check the worker: k8s/base/workers/).
HEALTHCHECK --interval=60s --timeout=20s --start-period=30s --retries=3 \
  CMD ["lease-parser", "healthcheck"]
CMD ["lease-parser", "--help"]
