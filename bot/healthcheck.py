"""`python -m bot.healthcheck`: exit 0 if the bot running here says it is healthy, 1 if not.

It is for a container's HEALTHCHECK. It asks http://127.0.0.1:METRICS_PORT/health (METRICS_PORT
from the environment or `.env`)."""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request

from dotenv import dotenv_values


def main() -> int:
    port = os.environ.get("METRICS_PORT") or dotenv_values(".env").get("METRICS_PORT")
    if not port:
        print("METRICS_PORT is not set: the bot serves no health check.", file=sys.stderr)
        return 1
    url = f"http://127.0.0.1:{port}/health"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            print(json.loads(response.read()).get("status", "ok"))
            return 0
    except urllib.error.HTTPError as error:  # 503: unhealthy, with the reasons
        print(error.read().decode(errors="replace"), file=sys.stderr)
    except (OSError, ValueError) as error:
        print(f"no answer from {url}: {error}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
