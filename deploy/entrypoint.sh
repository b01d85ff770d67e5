#!/bin/sh
# Entrypoint of the Roost image: the first argument picks the process.
#   SERVICE [ARGS...]
#       a gRPC service of the registry (protos/roost/games.toml: every game and
#       the matchmaker): python -m services.<name>, configured by environment
#       (REDIS_URL, REDIS_CLUSTER, PORT, METRICS_PORT, LOG_LEVEL, ...)
#   roost [ARGS...]
#       the roost CLI: play, watch, queue, bots, tournament
# exec replaces this shell, so the process gets SIGTERM directly and drains.
set -eu

# The registry: beside this script in the repository, in /app in the image.
registry="$(dirname "$0")/../protos/roost/games.toml"
[ -f "$registry" ] || registry="${ROOST_REGISTRY:-/app/protos/roost/games.toml}"
# Every service name in the registry (its `name = "..."` lines), space separated.
services=$(sed -n 's/^name = "\([a-z0-9]*\)"$/\1/p' "$registry" | tr '\n' ' ')

usage() {
    cat >&2 <<USAGE
usage: roost-entrypoint COMMAND [ARGS...]
commands:
  ${services% }
                    run that gRPC service (python -m services.COMMAND)
  roost [ARGS...]   run the roost CLI, e.g. roost tournament --help
USAGE
}

if [ "$#" -eq 0 ]; then
    usage
    exit 64
fi

command=$1
shift
case "$command" in
    roost)
        exec roost "$@"
        ;;
    -h | --help | help)
        usage
        exit 0
        ;;
esac
for service in $services; do
    if [ "$command" = "$service" ]; then
        exec python -m "services.$command" "$@"
    fi
done
echo "roost-entrypoint: unknown command: $command" >&2
usage
exit 64
