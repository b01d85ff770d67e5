#!/bin/sh
# Entrypoint of the Roost image: the first argument picks the process.
#   undertheleaves | skygarden | wingspan | birdscaping | matchmaking [ARGS...]
#       the gRPC service: python -m services.<name>, configured by environment
#       (REDIS_URL, REDIS_CLUSTER, PORT, METRICS_PORT, LOG_LEVEL, ...)
#   roost [ARGS...]
#       the roost CLI: play, watch, queue, bots, tournament
# exec replaces this shell, so the process gets SIGTERM directly and drains.
set -eu

usage() {
    cat >&2 <<'USAGE'
usage: roost-entrypoint COMMAND [ARGS...]
commands:
  undertheleaves | skygarden | wingspan | birdscaping | matchmaking
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
    undertheleaves | skygarden | wingspan | birdscaping | matchmaking)
        exec python -m "services.$command" "$@"
        ;;
    roost)
        exec roost "$@"
        ;;
    -h | --help | help)
        usage
        exit 0
        ;;
    *)
        echo "roost-entrypoint: unknown command: $command" >&2
        usage
        exit 64
        ;;
esac
