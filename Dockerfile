# The bot in a container: `docker build -t cardtable .`, then run it with DISCORD_TOKEN and
# DATABASE_URL (or a volume on /app/data for the SQLite file). compose.yaml runs PostgreSQL and
# two bot processes on two shards.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot bot
COPY games games
COPY storage storage
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 cardtable \
    && mkdir -p /app/data && chown cardtable /app/data

# The operations endpoint (metrics and /health) inside the container; compose.yaml lets
# Prometheus reach it on its own network (METRICS_HOST=0.0.0.0), nothing is published.
ENV METRICS_PORT=9108
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.healthcheck"]
USER cardtable
# The SQLite file lives here when DATABASE_URL is not set: keep it on a volume.
VOLUME /app/data
CMD ["python", "-m", "bot"]
