#!/bin/sh
# The entry point of Sinilill's image (infra/Dockerfile): the container's first argument
# picks what runs, the rest is handed on.
#
#   command-api | query-api | projector | gateway
#       a long-running service: node services/<name>/dist/server.js (built by `npm run build`)
#   migrate | import | replay | backup | restore
#       an operators' command: node services/cli/bin/sinilill.mjs <command> [arguments], the same
#       as `npm run <command>` in a checkout (e.g. `import --synthetic 100000`)
#   help
#       this list (exit 0)
#
# Anything else, or nothing, prints the list on stderr and exits 64 (EX_USAGE). Configuration comes
# from the environment only (packages/config, infra/env.example). tini (the image's PID 1, with
# -g) passes SIGTERM on to the whole process group, and the services close gracefully on it
# (@sinilill/http, SHUTDOWN_DELAY_MS).
#
# replay and restore get their capped heap (--max-old-space-size=160 --max-semi-space-size=8,
# about 280 MB resident for a million events instead of 600 MB) from the launcher itself,
# which starts itself again with those flags unless NODE_OPTIONS holds heap flags of the operator's
# (services/cli/bin/sinilill.mjs HEAP_FLAGS): one list, kept in one place.
set -eu

# The application's folder: /app in the image (this script is /app/infra/docker-entrypoint.sh).
app=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)

usage() {
  cat <<'EOF'
usage: <image> <command> [arguments]

services (long-running; configuration from the environment, see infra/env.example):
  command-api   the command API          (COMMAND_API_PORT, default PORT + 1)
  query-api     the query API            (QUERY_API_PORT, default PORT + 2)
  projector     the projector            (PROJECTOR_PORT for /health and /metrics, default PORT + 7)
  gateway       the web client and /api  (PORT, default 3000)

operators' commands (run once, then exit):
  migrate       every schema to its latest migration
  import        an edition's export as events into its edition, planned and opened first
                (--dir, default FIXTURE_DIR; --year, default the year it says); migrates first
  replay        rebuild the read models beside the live ones and swap them in
  backup        [file] a backup of the database, by default into DATA_DIR/backups (docs/backup.md)
  restore       <file> load a backup into an empty database and rebuild the read models

  help          this text
EOF
}

if [ "$#" -eq 0 ]; then
  usage >&2
  exit 64
fi
command=$1
shift

case "$command" in
  command-api | query-api | projector | gateway)
    exec node --enable-source-maps "$app/services/$command/dist/server.js" "$@"
    ;;
  migrate | import | replay | backup | restore)
    exec node --enable-source-maps "$app/services/cli/bin/sinilill.mjs" "$command" "$@"
    ;;
  help | --help | -h)
    usage
    exit 0
    ;;
  *)
    echo "unknown command: $command" >&2
    usage >&2
    exit 64
    ;;
esac
