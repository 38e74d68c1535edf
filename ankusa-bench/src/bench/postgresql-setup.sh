#!/usr/bin/env bash
# Set-up of the PostgreSQL outbox bench (io.ankusa.bench.outbox.PostgresOutboxBench), run by
# the bench profile before the benches: makes sure PostgreSQL's server binaries (initdb, pg_ctl)
# are installed, installing the distribution's package when they are not. The bench itself
# creates, starts and deletes its private cluster. CI does not run benches, so CI never runs this.
set -euo pipefail

found() {
    compgen -G '/usr/lib/postgresql/*/bin/initdb' > /dev/null || command -v initdb > /dev/null
}

if found; then
    echo "postgresql-setup: PostgreSQL found ($(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tr '\n' ' ')$(command -v initdb || true))"
    exit 0
fi
echo "postgresql-setup: no initdb found; installing the distribution's postgresql package"
if [ "$(id -u)" -eq 0 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
else
    sudo -n apt-get update
    sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
fi
found || { echo "postgresql-setup: still no initdb after the install" >&2; exit 1; }
