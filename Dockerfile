# gradstep: the web app with Debian's Graphviz, as a non-root user on port 8000.
FROM python:3.11-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends graphviz fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 gradstep \
    && mkdir /data && chown gradstep /data
WORKDIR /app

COPY pyproject.toml README.md ./
COPY engine ./engine
COPY app ./app
COPY static ./static
COPY templates ./templates
# the sandbox programs run in: built and compiled once, here, where every user can read it
ENV GRADSTEP_SANDBOX=/opt/gradstep-sandbox
# editable: app/ finds static/ and templates/ beside it, as in a clone
RUN pip install --no-cache-dir -e '.[postgres]' \
    && python -c "import app.main" \
    && gradstep sandbox

USER gradstep
ENV PYTHONUNBUFFERED=1
# short links: SQLite in a volume that outlives the container (or GRADSTEP_DATABASE_URL)
ENV GRADSTEP_DATA=/data
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD python -c "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"
CMD ["gradstep", "serve", "--host", "0.0.0.0", "--port", "8000"]
